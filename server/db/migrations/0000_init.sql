CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "activity" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" text,
	"document_id" text,
	"actor_id" text,
	"actor_name" text NOT NULL,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"title" text NOT NULL,
	"details" jsonb,
	"dispatch_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "command_events" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text,
	"caller_key" text NOT NULL,
	"command" text NOT NULL,
	"entity_id" text NOT NULL,
	"note" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comment_mentions" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"comment_id" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp (3) with time zone,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" text NOT NULL,
	"document_id" text NOT NULL,
	"author_id" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "dispatches" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" text NOT NULL,
	"document_id" text,
	"report_id" text,
	"activity_id" text,
	"action_type" text NOT NULL,
	"sender_id" text,
	"sender_name" text NOT NULL,
	"sender_email" text NOT NULL,
	"title" text NOT NULL,
	"dispatched_at" timestamp (3) with time zone NOT NULL,
	"recipient_count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_approvers" (
	"organization_id" text NOT NULL,
	"document_id" text NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"status" text NOT NULL,
	"responded_at" timestamp (3) with time zone,
	CONSTRAINT "document_approvers_document_id_user_id_pk" PRIMARY KEY("document_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "document_assignees" (
	"organization_id" text NOT NULL,
	"document_id" text NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "document_assignees_document_id_user_id_pk" PRIMARY KEY("document_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "document_consultants" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"document_id" text NOT NULL,
	"type" text NOT NULL,
	"company" text NOT NULL,
	"responder_name" text,
	"responder_email" text,
	"status" text NOT NULL,
	"response" text,
	"responded_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "document_distribution" (
	"organization_id" text NOT NULL,
	"document_id" text NOT NULL,
	"email" text NOT NULL,
	"user_id" text,
	"name" text NOT NULL,
	"company" text,
	CONSTRAINT "document_distribution_document_id_email_pk" PRIMARY KEY("document_id","email")
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" text NOT NULL,
	"number" text NOT NULL,
	"format" text NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"status" text NOT NULL,
	"priority" text,
	"due_date" date,
	"issued_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_by_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reference_number" text,
	"division_title" text,
	"review_status" text,
	"received_at" timestamp (3) with time zone,
	"closed_at" timestamp (3) with time zone,
	"ball_in_court" jsonb,
	"search_text" text DEFAULT '' NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', coalesce(number, '') || ' ' || coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(title, '') || ' ' || coalesce(search_text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "drawing_bundles" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" text NOT NULL,
	"package_id" text,
	"cache_key" text NOT NULL,
	"blob_key" text,
	"drawing_count" integer NOT NULL,
	"total_source_bytes" bigint NOT NULL,
	"skipped_drawings" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drawing_packages" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drawing_revisions" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"drawing_id" text NOT NULL,
	"revision" text NOT NULL,
	"sequence" integer NOT NULL,
	"blob_key" text,
	"file_name" text NOT NULL,
	"file_size" bigint DEFAULT 0 NOT NULL,
	"uploaded_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drawings" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" text NOT NULL,
	"package_id" text,
	"number" text NOT NULL,
	"title" text NOT NULL,
	"discipline" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_filing_settings" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"ai_suggest" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp (3) with time zone,
	"updated_by_id" text
);
--> statement-breakpoint
CREATE TABLE "email_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" text NOT NULL,
	"dispatch_id" text NOT NULL,
	"mailer_message_id" text NOT NULL,
	"recipient_email" text NOT NULL,
	"recipient_name" text NOT NULL,
	"recipient_uid" text,
	"sender_email" text NOT NULL,
	"sender_name" text NOT NULL,
	"sender_uid" text,
	"action_type" text NOT NULL,
	"document_id" text,
	"activity_title" text NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"sent_to_mailer" timestamp (3) with time zone,
	"send" timestamp (3) with time zone,
	"delivery" timestamp (3) with time zone,
	"first_opened" timestamp (3) with time zone,
	"last_opened" timestamp (3) with time zone,
	"bounce" timestamp (3) with time zone,
	"bounce_type" text,
	"bounce_subtype" text,
	"not_sent_reason" text,
	"not_sent" jsonb
);
--> statement-breakpoint
CREATE TABLE "filed_email_attachments" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"filed_email_id" text NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"blob_key" text NOT NULL,
	"text_content" text
);
--> statement-breakpoint
CREATE TABLE "filed_emails" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" text NOT NULL,
	"document_id" text,
	"message_id" text NOT NULL,
	"message_id_generated" boolean DEFAULT false NOT NULL,
	"conversation_id" text,
	"in_reply_to" text,
	"references" text[] DEFAULT '{}'::text[] NOT NULL,
	"subject" text NOT NULL,
	"from_address" text NOT NULL,
	"from_name" text,
	"to" jsonb NOT NULL,
	"cc" jsonb NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"body_text" text DEFAULT '' NOT NULL,
	"raw_blob_key" text,
	"html_blob_key" text,
	"has_attachments" boolean DEFAULT false NOT NULL,
	"note" text,
	"filed_by_id" text NOT NULL,
	"filed_at" timestamp (3) with time zone NOT NULL,
	"search_text" text DEFAULT '' NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', coalesce(subject, '')), 'A') || setweight(to_tsvector('english', coalesce(search_text, '')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "idempotency_records" (
	"caller_key" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"organization_id" text,
	"request_hash" text NOT NULL,
	"state" text NOT NULL,
	"response_status" integer,
	"response_headers" jsonb,
	"response_body" "bytea",
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "idempotency_records_caller_key_idempotency_key_pk" PRIMARY KEY("caller_key","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "oauth_apps" (
	"client_id" text PRIMARY KEY NOT NULL,
	"client_secret_hash" text,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_auth_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"user_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text NOT NULL,
	"scopes" text[] NOT NULL,
	"resource" text,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "oauth_client_org_scopes" (
	"client_row_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_client_org_scopes_client_row_id_organization_id_pk" PRIMARY KEY("client_row_id","organization_id")
);
--> statement-breakpoint
CREATE TABLE "oauth_client_project_scopes" (
	"client_row_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_client_project_scopes_client_row_id_project_id_pk" PRIMARY KEY("client_row_id","project_id")
);
--> statement-breakpoint
CREATE TABLE "oauth_clients" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"secret_hash" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"superadmin" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"permissions" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_by" text NOT NULL,
	"created_by_client_id" text,
	"created_by_user_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "oauth_clients_client_id_unique" UNIQUE("client_id")
);
--> statement-breakpoint
CREATE TABLE "oauth_refresh_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"family_id" text NOT NULL,
	"client_id" text NOT NULL,
	"user_id" text NOT NULL,
	"scopes" text[] NOT NULL,
	"resource" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "organization_members" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_members" (
	"organization_id" text NOT NULL,
	"project_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text,
	CONSTRAINT "project_members_project_id_user_id_pk" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_attendees" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"report_id" text NOT NULL,
	"name" text NOT NULL,
	"company" text,
	"role" text,
	"present" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_distribution" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"report_id" text NOT NULL,
	"user_id" text,
	"name" text NOT NULL,
	"email" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_sections" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"report_id" text NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"project_id" text NOT NULL,
	"series_id" text NOT NULL,
	"type" text DEFAULT 'report' NOT NULL,
	"format" text DEFAULT 'report' NOT NULL,
	"report_kind" text NOT NULL,
	"status" text NOT NULL,
	"title" text NOT NULL,
	"date" timestamp (3) with time zone NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"version" text NOT NULL,
	"is_latest_version" boolean NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_by_name" text NOT NULL,
	"observations" text DEFAULT '' NOT NULL,
	"weather" text DEFAULT '' NOT NULL,
	"issued_at" timestamp (3) with time zone,
	"issued_by_name" text,
	"pdf_blob_key" text
);
--> statement-breakpoint
CREATE TABLE "request_usage" (
	"client_row_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"total_ms" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "request_usage_client_row_id_endpoint_pk" PRIMARY KEY("client_row_id","endpoint")
);
--> statement-breakpoint
CREATE TABLE "review_findings" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"document_id" text NOT NULL,
	"review_run_id" text,
	"source" text NOT NULL,
	"severity" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"suggested_comment" text DEFAULT '' NOT NULL,
	"spec_section_id" text DEFAULT '' NOT NULL,
	"key" text NOT NULL,
	"confidence" real NOT NULL,
	"dismissed" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"document_id" text NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"completed_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "support_issues" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"approach" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text,
	"staff" boolean DEFAULT false NOT NULL,
	"company" text,
	"phone" text,
	"title" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "comment_mentions" ADD CONSTRAINT "comment_mentions_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_approvers" ADD CONSTRAINT "document_approvers_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_assignees" ADD CONSTRAINT "document_assignees_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_consultants" ADD CONSTRAINT "document_consultants_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_distribution" ADD CONSTRAINT "document_distribution_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drawing_revisions" ADD CONSTRAINT "drawing_revisions_drawing_id_drawings_id_fk" FOREIGN KEY ("drawing_id") REFERENCES "public"."drawings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drawings" ADD CONSTRAINT "drawings_package_id_drawing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."drawing_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_filing_settings" ADD CONSTRAINT "email_filing_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filed_email_attachments" ADD CONSTRAINT "filed_email_attachments_filed_email_id_filed_emails_id_fk" FOREIGN KEY ("filed_email_id") REFERENCES "public"."filed_emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_client_org_scopes" ADD CONSTRAINT "oauth_client_org_scopes_client_row_id_oauth_clients_id_fk" FOREIGN KEY ("client_row_id") REFERENCES "public"."oauth_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_client_org_scopes" ADD CONSTRAINT "oauth_client_org_scopes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_client_project_scopes" ADD CONSTRAINT "oauth_client_project_scopes_client_row_id_oauth_clients_id_fk" FOREIGN KEY ("client_row_id") REFERENCES "public"."oauth_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_client_project_scopes" ADD CONSTRAINT "oauth_client_project_scopes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_client_project_scopes" ADD CONSTRAINT "oauth_client_project_scopes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_members" ADD CONSTRAINT "organization_members_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_members" ADD CONSTRAINT "organization_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_attendees" ADD CONSTRAINT "report_attendees_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_distribution" ADD CONSTRAINT "report_distribution_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_sections" ADD CONSTRAINT "report_sections_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_usage" ADD CONSTRAINT "request_usage_client_row_id_oauth_clients_id_fk" FOREIGN KEY ("client_row_id") REFERENCES "public"."oauth_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_findings" ADD CONSTRAINT "review_findings_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_findings" ADD CONSTRAINT "review_findings_review_run_id_review_runs_id_fk" FOREIGN KEY ("review_run_id") REFERENCES "public"."review_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_runs" ADD CONSTRAINT "review_runs_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_org_created_idx" ON "activity" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "activity_org_project_created_idx" ON "activity" USING btree ("organization_id","project_id","created_at","id");--> statement-breakpoint
CREATE INDEX "activity_org_actor_created_idx" ON "activity" USING btree ("organization_id","actor_id","created_at","id");--> statement-breakpoint
CREATE INDEX "activity_org_action_created_idx" ON "activity" USING btree ("organization_id","action","created_at","id");--> statement-breakpoint
CREATE INDEX "activity_document_created_idx" ON "activity" USING btree ("document_id","created_at","id");--> statement-breakpoint
CREATE INDEX "comment_mentions_comment_idx" ON "comment_mentions" USING btree ("comment_id");--> statement-breakpoint
CREATE INDEX "comment_mentions_user_idx" ON "comment_mentions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "comments_document_idx" ON "comments" USING btree ("document_id","created_at");--> statement-breakpoint
CREATE INDEX "dispatches_project_recent_idx" ON "dispatches" USING btree ("project_id","dispatched_at","id");--> statement-breakpoint
CREATE INDEX "dispatches_project_largest_idx" ON "dispatches" USING btree ("project_id","recipient_count","id");--> statement-breakpoint
CREATE INDEX "dispatches_document_idx" ON "dispatches" USING btree ("document_id","dispatched_at");--> statement-breakpoint
CREATE INDEX "dispatches_project_sender_idx" ON "dispatches" USING btree ("project_id",lower(sender_email),"dispatched_at");--> statement-breakpoint
CREATE INDEX "document_assignees_user_idx" ON "document_assignees" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "document_consultants_document_idx" ON "document_consultants" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "documents_project_created_idx" ON "documents" USING btree ("project_id","created_at","id");--> statement-breakpoint
CREATE INDEX "documents_project_updated_idx" ON "documents" USING btree ("project_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "documents_project_due_idx" ON "documents" USING btree ("project_id","due_date","id");--> statement-breakpoint
CREATE INDEX "documents_project_format_created_idx" ON "documents" USING btree ("project_id","format","created_at","id");--> statement-breakpoint
CREATE INDEX "documents_org_created_idx" ON "documents" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "documents_created_idx" ON "documents" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "documents_format_created_idx" ON "documents" USING btree ("format","created_at","id");--> statement-breakpoint
CREATE INDEX "documents_search_idx" ON "documents" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "documents_number_trgm_idx" ON "documents" USING gin ((number || ' ' || title) gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "drawing_bundles_cache_idx" ON "drawing_bundles" USING btree ("organization_id","cache_key");--> statement-breakpoint
CREATE INDEX "drawing_packages_project_idx" ON "drawing_packages" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "drawing_revisions_drawing_seq_idx" ON "drawing_revisions" USING btree ("drawing_id","sequence");--> statement-breakpoint
CREATE INDEX "drawings_project_idx" ON "drawings" USING btree ("project_id","number");--> statement-breakpoint
CREATE INDEX "drawings_package_idx" ON "drawings" USING btree ("package_id");--> statement-breakpoint
CREATE INDEX "email_messages_mailer_idx" ON "email_messages" USING btree ("mailer_message_id");--> statement-breakpoint
CREATE INDEX "email_messages_dispatch_idx" ON "email_messages" USING btree ("dispatch_id");--> statement-breakpoint
CREATE INDEX "email_messages_project_sent_idx" ON "email_messages" USING btree ("project_id","sent_at","id");--> statement-breakpoint
CREATE INDEX "email_messages_org_sent_idx" ON "email_messages" USING btree ("organization_id","sent_at","id");--> statement-breakpoint
CREATE INDEX "filed_email_attachments_email_idx" ON "filed_email_attachments" USING btree ("filed_email_id");--> statement-breakpoint
CREATE UNIQUE INDEX "filed_emails_project_message_idx" ON "filed_emails" USING btree ("project_id","message_id");--> statement-breakpoint
CREATE INDEX "filed_emails_org_message_idx" ON "filed_emails" USING btree ("organization_id","message_id");--> statement-breakpoint
CREATE INDEX "filed_emails_project_filed_idx" ON "filed_emails" USING btree ("project_id","filed_at","id");--> statement-breakpoint
CREATE INDEX "filed_emails_conversation_idx" ON "filed_emails" USING btree ("organization_id","conversation_id");--> statement-breakpoint
CREATE INDEX "filed_emails_from_idx" ON "filed_emails" USING btree ("organization_id",lower(from_address));--> statement-breakpoint
CREATE INDEX "filed_emails_search_idx" ON "filed_emails" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "idempotency_records_expires_idx" ON "idempotency_records" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "oauth_clients_created_by_client_idx" ON "oauth_clients" USING btree ("created_by_client_id","created_at","id");--> statement-breakpoint
CREATE INDEX "oauth_refresh_tokens_family_idx" ON "oauth_refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_members_org_user_idx" ON "organization_members" USING btree ("organization_id","user_id");--> statement-breakpoint
CREATE INDEX "organization_members_user_idx" ON "organization_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "project_members_user_idx" ON "project_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "projects_org_name_idx" ON "projects" USING btree ("organization_id","name","id");--> statement-breakpoint
CREATE INDEX "report_attendees_report_idx" ON "report_attendees" USING btree ("report_id");--> statement-breakpoint
CREATE INDEX "report_distribution_report_idx" ON "report_distribution" USING btree ("report_id");--> statement-breakpoint
CREATE INDEX "report_sections_report_idx" ON "report_sections" USING btree ("report_id","position");--> statement-breakpoint
CREATE INDEX "reports_project_created_idx" ON "reports" USING btree ("project_id","created_at","id");--> statement-breakpoint
CREATE INDEX "reports_org_latest_idx" ON "reports" USING btree ("organization_id","is_latest_version","report_kind","status");--> statement-breakpoint
CREATE INDEX "review_findings_active_idx" ON "review_findings" USING btree ("document_id","source","severity") WHERE deleted_at IS NULL AND NOT dismissed;--> statement-breakpoint
CREATE INDEX "review_runs_document_idx" ON "review_runs" USING btree ("document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_idx" ON "users" USING btree (lower("email"));