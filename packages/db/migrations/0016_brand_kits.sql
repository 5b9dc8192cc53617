CREATE TABLE "brand_kits" (
	"channel_id" integer PRIMARY KEY NOT NULL,
	"accent_color" text DEFAULT '#2563eb' NOT NULL,
	"name_tag_style" text DEFAULT 'classic' NOT NULL,
	"logo" text,
	"background" text,
	"overlay" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "brand_kits" ADD CONSTRAINT "brand_kits_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;