ALTER TABLE "filed_emails" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "filed_emails" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', translate(coalesce(subject, ''), '<>', '  ')), 'A') || setweight(to_tsvector('english', translate(coalesce(search_text, ''), '<>', '  ')), 'B')) STORED;--> statement-breakpoint
-- Dropping the column dropped its index.
CREATE INDEX "filed_emails_search_idx" ON "filed_emails" USING gin ("search_vector");
