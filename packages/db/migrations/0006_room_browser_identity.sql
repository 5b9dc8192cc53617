ALTER TABLE "room_participants" ADD COLUMN "browser_hash" text;--> statement-breakpoint
CREATE INDEX "room_participants_browser_idx" ON "room_participants" USING btree ("meeting_id","browser_hash");