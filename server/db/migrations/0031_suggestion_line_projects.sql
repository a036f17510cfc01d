-- Per-project counts of each learned boilerplate line, so unfiling or moving an e-mail takes its lines out of the
-- right project. Lines learned before keep their e-mails under their first project (a line in several projects
-- counts as two); `cli org relearn-suggestions` makes them exact.
ALTER TABLE "suggestion_lines" ADD COLUMN "project_counts" jsonb;--> statement-breakpoint
ALTER TABLE "suggestion_lines" ADD COLUMN "projects" integer;--> statement-breakpoint
UPDATE "suggestion_lines" SET "project_counts" = jsonb_build_object("first_project", "emails"),
  "projects" = CASE WHEN "many_projects" THEN 2 ELSE 1 END;--> statement-breakpoint
ALTER TABLE "suggestion_lines" ALTER COLUMN "project_counts" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "suggestion_lines" ALTER COLUMN "projects" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "suggestion_lines" DROP COLUMN "first_project";--> statement-breakpoint
ALTER TABLE "suggestion_lines" DROP COLUMN "many_projects";
