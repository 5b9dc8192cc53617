ALTER TABLE "live_broadcasts" ADD COLUMN "overlay_scene" text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE "live_broadcasts" ADD COLUMN "overlay_scene_message" text;--> statement-breakpoint
ALTER TABLE "live_broadcasts" ADD COLUMN "overlay_scene_countdown_to" timestamp with time zone;