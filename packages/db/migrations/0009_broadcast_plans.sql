CREATE TABLE "broadcast_plans" (
	"meeting_id" integer PRIMARY KEY NOT NULL,
	"destinations" jsonb NOT NULL,
	"record" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "broadcast_plans" ADD CONSTRAINT "broadcast_plans_meeting_id_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("id") ON DELETE cascade ON UPDATE no action;