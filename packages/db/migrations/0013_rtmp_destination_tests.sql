ALTER TABLE "stream_connections" ADD COLUMN "last_test_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stream_connections" ADD COLUMN "last_test_result" text;--> statement-breakpoint
ALTER TABLE "stream_connections" ADD COLUMN "last_test_reason" text;--> statement-breakpoint
ALTER TABLE "stream_connections" ADD COLUMN "last_live_at" timestamp with time zone;