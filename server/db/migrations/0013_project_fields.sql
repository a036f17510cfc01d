ALTER TABLE "projects" ADD COLUMN "site_address" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "reference_numbers" jsonb DEFAULT '[]'::jsonb NOT NULL;