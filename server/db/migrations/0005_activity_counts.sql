CREATE TABLE "activity_counts" (
	"organization_id" text NOT NULL,
	"project_id" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "activity_counts_organization_id_project_id_pk" PRIMARY KEY("organization_id","project_id")
);
--> statement-breakpoint
-- Hand-written: the counts are kept by statement-level triggers (one upsert per statement and project, so a bulk
-- insert costs one update per project), then filled from the rows already there.
CREATE FUNCTION "activity_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "activity_counts" ("organization_id", "project_id", "n")
    SELECT "organization_id", coalesce("project_id", ''), count(*) FROM "activity_added" GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("organization_id", "project_id") DO UPDATE SET "n" = "activity_counts"."n" + excluded."n";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "activity_counts_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "activity_counts" c SET "n" = c."n" - r."n"
    FROM (SELECT "organization_id", coalesce("project_id", '') AS "project_id", count(*) AS "n"
          FROM "activity_removed" GROUP BY 1, 2) r
    WHERE c."organization_id" = r."organization_id" AND c."project_id" = r."project_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "activity_counts_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "activity_counts";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "activity_counts_insert" AFTER INSERT ON "activity" REFERENCING NEW TABLE AS "activity_added"
  FOR EACH STATEMENT EXECUTE FUNCTION "activity_counts_add"();--> statement-breakpoint
CREATE TRIGGER "activity_counts_delete" AFTER DELETE ON "activity" REFERENCING OLD TABLE AS "activity_removed"
  FOR EACH STATEMENT EXECUTE FUNCTION "activity_counts_remove"();--> statement-breakpoint
CREATE TRIGGER "activity_counts_update_remove" AFTER UPDATE ON "activity" REFERENCING OLD TABLE AS "activity_removed"
  FOR EACH STATEMENT EXECUTE FUNCTION "activity_counts_remove"();--> statement-breakpoint
CREATE TRIGGER "activity_counts_update_add" AFTER UPDATE ON "activity" REFERENCING NEW TABLE AS "activity_added"
  FOR EACH STATEMENT EXECUTE FUNCTION "activity_counts_add"();--> statement-breakpoint
CREATE TRIGGER "activity_counts_truncate" AFTER TRUNCATE ON "activity"
  FOR EACH STATEMENT EXECUTE FUNCTION "activity_counts_clear"();--> statement-breakpoint
INSERT INTO "activity_counts" ("organization_id", "project_id", "n")
  SELECT "organization_id", coalesce("project_id", ''), count(*) FROM "activity" GROUP BY 1, 2;
