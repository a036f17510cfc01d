ALTER TABLE "documents" ADD COLUMN "change_seq" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "filed_emails" ADD COLUMN "change_seq" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "documents_project_change_idx" ON "documents" USING btree ("project_id","change_seq");--> statement-breakpoint
CREATE INDEX "filed_emails_project_change_idx" ON "filed_emails" USING btree ("project_id","change_seq");--> statement-breakpoint
-- Hand-written: every update of a synced row takes the id of the transaction that makes it, whichever code path
-- writes it (the insert takes it from the column default). A sync token compares against this id (issue 40).
CREATE FUNCTION "change_seq_stamp"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_seq := pg_current_xact_id();
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "documents_change_seq" BEFORE UPDATE ON "documents" FOR EACH ROW EXECUTE FUNCTION "change_seq_stamp"();--> statement-breakpoint
CREATE TRIGGER "filed_emails_change_seq" BEFORE UPDATE ON "filed_emails" FOR EACH ROW EXECUTE FUNCTION "change_seq_stamp"();
