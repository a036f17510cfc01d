ALTER TABLE "suggestion_feature_totals" ADD COLUMN "counts" jsonb;--> statement-breakpoint
-- The per-project counts of features held by at most 40 projects (MODEL_MAX_PROJECTS) move into their row.
UPDATE "suggestion_feature_totals" t SET "counts" = c.counts FROM (
  SELECT organization_id, feature, jsonb_object_agg(project_id, emails) AS counts
  FROM "suggestion_features" GROUP BY organization_id, feature HAVING count(*) <= 40
) c WHERE c.organization_id = t.organization_id AND c.feature = t.feature;--> statement-breakpoint
UPDATE "suggestion_feature_totals" SET "projects" = 41 WHERE "counts" IS NULL;--> statement-breakpoint
DROP TABLE "suggestion_features" CASCADE;
