CREATE TABLE "blob_releases" (
	"blob_key" text PRIMARY KEY NOT NULL,
	"released_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "filed_email_attachments_blob_idx" ON "filed_email_attachments" USING btree ("blob_key");--> statement-breakpoint
CREATE INDEX "filed_emails_raw_blob_idx" ON "filed_emails" USING btree ("raw_blob_key");--> statement-breakpoint
CREATE INDEX "filed_emails_html_blob_idx" ON "filed_emails" USING btree ("html_blob_key");