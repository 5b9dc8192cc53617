CREATE TABLE "broadcast_reminders" (
	"id" serial PRIMARY KEY NOT NULL,
	"meeting_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "broadcast_reminders" ADD CONSTRAINT "broadcast_reminders_meeting_id_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_reminders" ADD CONSTRAINT "broadcast_reminders_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_reminders" ADD CONSTRAINT "broadcast_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "broadcast_reminders_unique" ON "broadcast_reminders" USING btree ("meeting_id","user_id");--> statement-breakpoint
CREATE INDEX "broadcast_reminders_user_idx" ON "broadcast_reminders" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "broadcast_reminders_channel_idx" ON "broadcast_reminders" USING btree ("channel_id");