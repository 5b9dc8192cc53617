CREATE TABLE "media_servers" (
	"url" text PRIMARY KEY NOT NULL,
	"api_secret" text NOT NULL,
	"admin_key" text NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL
);
