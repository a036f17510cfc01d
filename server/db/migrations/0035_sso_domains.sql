CREATE TABLE "sso_domains" (
	"organization_id" text NOT NULL,
	"domain" text NOT NULL,
	"token" text NOT NULL,
	"verified_at" timestamp (3) with time zone,
	"verified_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_domains_organization_id_domain_pk" PRIMARY KEY("organization_id","domain")
);
--> statement-breakpoint
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_organization_id_sso_connections_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."sso_connections"("organization_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sso_domains_verified_domain_idx" ON "sso_domains" USING btree ("domain") WHERE verified_at IS NOT NULL;--> statement-breakpoint
-- Domains declared before verification existed were never proven: they start pending (staff may approve them with
-- `verify-domain`).
INSERT INTO "sso_domains" ("organization_id", "domain", "token")
SELECT "organization_id", unnest("domains"), replace(gen_random_uuid()::text, '-', '') FROM "sso_connections";--> statement-breakpoint
ALTER TABLE "sso_connections" DROP COLUMN "domains";