CREATE TABLE "brand_overlays" (
	"id" serial PRIMARY KEY NOT NULL,
	"channel_id" integer NOT NULL,
	"path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "live_broadcasts" ADD COLUMN "overlay_image" text DEFAULT 'kit' NOT NULL;--> statement-breakpoint
ALTER TABLE "live_broadcasts" ADD COLUMN "overlay_image_id" integer;--> statement-breakpoint
ALTER TABLE "brand_overlays" ADD CONSTRAINT "brand_overlays_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "brand_overlays_channel_idx" ON "brand_overlays" USING btree ("channel_id","id");--> statement-breakpoint
ALTER TABLE "live_broadcasts" ADD CONSTRAINT "live_broadcasts_overlay_image_id_brand_overlays_id_fk" FOREIGN KEY ("overlay_image_id") REFERENCES "public"."brand_overlays"("id") ON DELETE set null ON UPDATE no action;