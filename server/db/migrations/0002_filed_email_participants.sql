CREATE INDEX "filed_emails_from_domain_idx" ON "filed_emails" USING btree ("organization_id",split_part(lower(from_address), '@', 2));--> statement-breakpoint
CREATE INDEX "filed_emails_to_idx" ON "filed_emails" USING gin ("to" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "filed_emails_cc_idx" ON "filed_emails" USING gin ("cc" jsonb_path_ops);