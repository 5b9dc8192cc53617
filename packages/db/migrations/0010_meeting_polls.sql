CREATE TABLE "meeting_poll_votes" (
	"poll_id" integer NOT NULL,
	"voter" text NOT NULL,
	"choice" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meeting_poll_votes_poll_id_voter_pk" PRIMARY KEY("poll_id","voter")
);
--> statement-breakpoint
CREATE TABLE "meeting_polls" (
	"id" serial PRIMARY KEY NOT NULL,
	"meeting_id" integer NOT NULL,
	"question" text NOT NULL,
	"options" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "meeting_poll_votes" ADD CONSTRAINT "meeting_poll_votes_poll_id_meeting_polls_id_fk" FOREIGN KEY ("poll_id") REFERENCES "public"."meeting_polls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_polls" ADD CONSTRAINT "meeting_polls_meeting_id_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meeting_polls_meeting_idx" ON "meeting_polls" USING btree ("meeting_id");