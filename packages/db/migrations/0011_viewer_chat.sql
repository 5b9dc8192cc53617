CREATE TABLE "viewer_chat_bans" (
	"id" serial PRIMARY KEY NOT NULL,
	"meeting_id" integer NOT NULL,
	"user_id" integer,
	"guest_id" text,
	"until" timestamp with time zone,
	"banned_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "viewer_chat_bans_one_target" CHECK (("viewer_chat_bans"."user_id" is null) <> ("viewer_chat_bans"."guest_id" is null))
);
--> statement-breakpoint
CREATE TABLE "viewer_chat_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"broadcast_id" integer NOT NULL,
	"user_id" integer,
	"guest_id" text,
	"display_name" text NOT NULL,
	"text" text NOT NULL,
	"offset_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "viewer_chat_settings" (
	"broadcast_id" integer PRIMARY KEY NOT NULL,
	"slow_mode_seconds" integer DEFAULT 0 NOT NULL,
	"pinned_message_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "viewer_chat_bans" ADD CONSTRAINT "viewer_chat_bans_meeting_id_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewer_chat_bans" ADD CONSTRAINT "viewer_chat_bans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewer_chat_bans" ADD CONSTRAINT "viewer_chat_bans_banned_by_users_id_fk" FOREIGN KEY ("banned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewer_chat_messages" ADD CONSTRAINT "viewer_chat_messages_broadcast_id_live_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."live_broadcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewer_chat_messages" ADD CONSTRAINT "viewer_chat_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewer_chat_settings" ADD CONSTRAINT "viewer_chat_settings_broadcast_id_live_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."live_broadcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewer_chat_settings" ADD CONSTRAINT "viewer_chat_settings_pinned_message_id_viewer_chat_messages_id_fk" FOREIGN KEY ("pinned_message_id") REFERENCES "public"."viewer_chat_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "viewer_chat_bans_user_unique" ON "viewer_chat_bans" USING btree ("meeting_id","user_id") WHERE "viewer_chat_bans"."user_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "viewer_chat_bans_guest_unique" ON "viewer_chat_bans" USING btree ("meeting_id","guest_id") WHERE "viewer_chat_bans"."guest_id" is not null;--> statement-breakpoint
CREATE INDEX "viewer_chat_messages_broadcast_idx" ON "viewer_chat_messages" USING btree ("broadcast_id","id");--> statement-breakpoint
CREATE INDEX "viewer_chat_messages_author_idx" ON "viewer_chat_messages" USING btree ("broadcast_id","user_id","guest_id");