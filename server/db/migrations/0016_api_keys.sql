ALTER TABLE "oauth_client_org_scopes" RENAME TO "api_key_org_scopes";--> statement-breakpoint
ALTER TABLE "oauth_client_project_scopes" RENAME TO "api_key_project_scopes";--> statement-breakpoint
ALTER TABLE "oauth_clients" RENAME TO "api_keys";--> statement-breakpoint
ALTER TABLE "api_keys" DROP CONSTRAINT "oauth_clients_client_id_unique";--> statement-breakpoint
ALTER TABLE "api_key_org_scopes" DROP CONSTRAINT "oauth_client_org_scopes_client_row_id_oauth_clients_id_fk";
--> statement-breakpoint
ALTER TABLE "api_key_org_scopes" DROP CONSTRAINT "oauth_client_org_scopes_organization_id_organizations_id_fk";
--> statement-breakpoint
ALTER TABLE "api_key_project_scopes" DROP CONSTRAINT "oauth_client_project_scopes_client_row_id_oauth_clients_id_fk";
--> statement-breakpoint
ALTER TABLE "api_key_project_scopes" DROP CONSTRAINT "oauth_client_project_scopes_organization_id_organizations_id_fk";
--> statement-breakpoint
ALTER TABLE "api_key_project_scopes" DROP CONSTRAINT "oauth_client_project_scopes_project_id_projects_id_fk";
--> statement-breakpoint
ALTER TABLE "request_usage" DROP CONSTRAINT "request_usage_client_row_id_oauth_clients_id_fk";
--> statement-breakpoint
DROP INDEX "oauth_clients_created_by_client_idx";--> statement-breakpoint
ALTER TABLE "api_key_org_scopes" DROP CONSTRAINT "oauth_client_org_scopes_client_row_id_organization_id_pk";--> statement-breakpoint
ALTER TABLE "api_key_project_scopes" DROP CONSTRAINT "oauth_client_project_scopes_client_row_id_project_id_pk";--> statement-breakpoint
ALTER TABLE "api_key_org_scopes" ADD CONSTRAINT "api_key_org_scopes_client_row_id_organization_id_pk" PRIMARY KEY("client_row_id","organization_id");--> statement-breakpoint
ALTER TABLE "api_key_project_scopes" ADD CONSTRAINT "api_key_project_scopes_client_row_id_project_id_pk" PRIMARY KEY("client_row_id","project_id");--> statement-breakpoint
ALTER TABLE "api_key_org_scopes" ADD CONSTRAINT "api_key_org_scopes_client_row_id_api_keys_id_fk" FOREIGN KEY ("client_row_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_org_scopes" ADD CONSTRAINT "api_key_org_scopes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_project_scopes" ADD CONSTRAINT "api_key_project_scopes_client_row_id_api_keys_id_fk" FOREIGN KEY ("client_row_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_project_scopes" ADD CONSTRAINT "api_key_project_scopes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_project_scopes" ADD CONSTRAINT "api_key_project_scopes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_usage" ADD CONSTRAINT "request_usage_client_row_id_api_keys_id_fk" FOREIGN KEY ("client_row_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_created_by_client_idx" ON "api_keys" USING btree ("created_by_client_id","created_at","id");--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_client_id_unique" UNIQUE("client_id");