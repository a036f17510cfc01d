ALTER TABLE "organizations" ADD COLUMN "projects_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written: every statement that adds, changes or removes projects counts up their organizations' version
-- (one update per statement and organization), whoever writes them (API, CLI, seed). The suggestion ranker keys
-- its per-instance cache of project names on it, so a change on any instance is seen on the next request.
CREATE FUNCTION "projects_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "organizations" SET "projects_version" = "projects_version" + 1
    WHERE "id" IN (SELECT DISTINCT "organization_id" FROM "projects_changed");
  RETURN NULL;
END $$;--> statement-breakpoint
-- An update counts up the organizations before and after (a project moved to another one changes both).
CREATE FUNCTION "projects_version_bump_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "organizations" SET "projects_version" = "projects_version" + 1
    WHERE "id" IN (SELECT "organization_id" FROM "projects_before" UNION SELECT "organization_id" FROM "projects_changed");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "projects_version_insert" AFTER INSERT ON "projects" REFERENCING NEW TABLE AS "projects_changed"
  FOR EACH STATEMENT EXECUTE FUNCTION "projects_version_bump"();--> statement-breakpoint
CREATE TRIGGER "projects_version_update" AFTER UPDATE ON "projects"
  REFERENCING OLD TABLE AS "projects_before" NEW TABLE AS "projects_changed"
  FOR EACH STATEMENT EXECUTE FUNCTION "projects_version_bump_moved"();--> statement-breakpoint
CREATE TRIGGER "projects_version_delete" AFTER DELETE ON "projects" REFERENCING OLD TABLE AS "projects_changed"
  FOR EACH STATEMENT EXECUTE FUNCTION "projects_version_bump"();
