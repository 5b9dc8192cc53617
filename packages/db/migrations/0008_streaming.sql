DROP TABLE "stream_connections" CASCADE;--> statement-breakpoint
CREATE TABLE "broadcast_destinations" (
	"id" serial PRIMARY KEY NOT NULL,
	"broadcast_id" integer NOT NULL,
	"connection_id" integer,
	"platform" text NOT NULL,
	"name" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"privacy" text,
	"category" text,
	"state" text DEFAULT 'starting' NOT NULL,
	"removed" boolean DEFAULT false NOT NULL,
	"error" text,
	"bitrate_kbps" real,
	"fps" real,
	"health" text,
	"viewers" integer,
	"external_broadcast_id" text,
	"external_stream_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_broadcasts" (
	"id" serial PRIMARY KEY NOT NULL,
	"meeting_id" integer NOT NULL,
	"started_by" integer,
	"state" text DEFAULT 'starting' NOT NULL,
	"record" boolean DEFAULT false NOT NULL,
	"stop_requested" boolean DEFAULT false NOT NULL,
	"composer_id" text,
	"composer_heartbeat_at" timestamp with time zone,
	"quality" text,
	"failure" text,
	"overlay_logo_url" text,
	"overlay_banner" text,
	"overlay_ticker" text,
	"recording_file" text,
	"recording_seconds" real,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stream_connections" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"platform" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'connected' NOT NULL,
	"external_id" text,
	"access_token_sealed" text,
	"refresh_token_sealed" text,
	"token_expires_at" timestamp with time zone,
	"validated_at" timestamp with time zone,
	"rtmp_url" text,
	"stream_key_sealed" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stream_oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"platform" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "broadcast_destinations" ADD CONSTRAINT "broadcast_destinations_broadcast_id_live_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."live_broadcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_destinations" ADD CONSTRAINT "broadcast_destinations_connection_id_stream_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."stream_connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_broadcasts" ADD CONSTRAINT "live_broadcasts_meeting_id_meetings_id_fk" FOREIGN KEY ("meeting_id") REFERENCES "public"."meetings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_broadcasts" ADD CONSTRAINT "live_broadcasts_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_connections" ADD CONSTRAINT "stream_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_oauth_states" ADD CONSTRAINT "stream_oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "broadcast_destinations_unique" ON "broadcast_destinations" USING btree ("broadcast_id","connection_id");--> statement-breakpoint
CREATE INDEX "live_broadcasts_meeting_idx" ON "live_broadcasts" USING btree ("meeting_id");--> statement-breakpoint
CREATE UNIQUE INDEX "live_broadcasts_one_running" ON "live_broadcasts" USING btree ("meeting_id") WHERE "live_broadcasts"."state" in ('starting', 'live');--> statement-breakpoint
CREATE INDEX "stream_connections_user_idx" ON "stream_connections" USING btree ("user_id");