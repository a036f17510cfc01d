CREATE TABLE "auth_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"last_failure_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_known_sources" (
	"key" text PRIMARY KEY NOT NULL,
	"last_success_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "auth_failures_last_failure_idx" ON "auth_failures" USING btree ("last_failure_at");--> statement-breakpoint
CREATE INDEX "auth_known_sources_last_success_idx" ON "auth_known_sources" USING btree ("last_success_at");