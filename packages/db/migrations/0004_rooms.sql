CREATE TABLE "room_credentials" (
	"meeting_id" integer PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"pin" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "room_participants" (
	"id" text PRIMARY KEY NOT NULL,
	"meeting_id" integer NOT NULL,
	"user_id" integer,
	"display_name" text NOT NULL,
	"role" text NOT NULL,
	"state" text NOT NULL,
	"grant_hash" text NOT NULL,
	"attendance_id" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "room_credentials" ADD CONSTRAINT "room_credentials_meeting_id_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_participants" ADD CONSTRAINT "room_participants_meeting_id_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_participants" ADD CONSTRAINT "room_participants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_participants" ADD CONSTRAINT "room_participants_attendance_id_meeting_attendance_id_fk" FOREIGN KEY ("attendance_id") REFERENCES "public"."meeting_attendance"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "room_participants_grant_unique" ON "room_participants" USING btree ("grant_hash");--> statement-breakpoint
CREATE INDEX "room_participants_meeting_idx" ON "room_participants" USING btree ("meeting_id","state");