CREATE TABLE "broadcast_chapters" (
	"id" serial PRIMARY KEY NOT NULL,
	"broadcast_id" integer NOT NULL,
	"kind" text NOT NULL,
	"layout" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"offset_seconds" real
);
--> statement-breakpoint
ALTER TABLE "broadcast_chapters" ADD CONSTRAINT "broadcast_chapters_broadcast_id_live_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."live_broadcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broadcast_chapters_broadcast_idx" ON "broadcast_chapters" USING btree ("broadcast_id","at");