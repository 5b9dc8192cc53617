CREATE TABLE "external_login_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"handle_hash" text NOT NULL,
	"state" text NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "external_login_attempts_handle_unique" ON "external_login_attempts" USING btree ("handle_hash");--> statement-breakpoint
CREATE INDEX "external_login_attempts_expires_idx" ON "external_login_attempts" USING btree ("expires_at");