ALTER TABLE "room_participants" ADD COLUMN "backstage" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "live_broadcasts" ADD COLUMN "on_stage" text[] DEFAULT '{}'::text[] NOT NULL;