-- `dispatch.created` is no longer an event an endpoint can subscribe to (nothing in the API creates dispatches):
-- endpoints that listed it keep their other events.
UPDATE "webhooks" SET "events" = array_remove("events", 'dispatch.created') WHERE 'dispatch.created' = ANY("events");--> statement-breakpoint
-- An e-mail is filed by a person (filed_by_id) or by an API key holding email:file (filed_by_key_id).
ALTER TABLE "filed_emails" ALTER COLUMN "filed_by_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "filed_emails" ADD COLUMN "filed_by_key_id" text;--> statement-breakpoint
ALTER TABLE "filed_emails" ADD CONSTRAINT "filed_emails_one_filer" CHECK (num_nonnulls(filed_by_id, filed_by_key_id) = 1);
