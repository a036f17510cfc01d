CREATE TABLE "revoked_grants" (
	"grant_id" text PRIMARY KEY NOT NULL,
	"revoked_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oauth_auth_codes" ADD COLUMN "grant_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "revoked_grants_expires_idx" ON "revoked_grants" USING btree ("expires_at");