CREATE TABLE "audit_events" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"actor_name" text NOT NULL,
	"actor_email" text NOT NULL,
	"ip" text,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"changes" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_events_org_created_idx" ON "audit_events" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_events_org_actor_created_idx" ON "audit_events" USING btree ("organization_id","actor_id","created_at","id");--> statement-breakpoint
-- Hand-written: the audit log is never edited. Every UPDATE or DELETE is refused, whoever sends it.
CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events"
	FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();
