CREATE TABLE "suggestion_lines" (
	"organization_id" text NOT NULL,
	"scope" text NOT NULL,
	"line" text NOT NULL,
	"emails" integer NOT NULL,
	"first_project" text NOT NULL,
	"many_projects" boolean NOT NULL,
	CONSTRAINT "suggestion_lines_organization_id_scope_line_pk" PRIMARY KEY("organization_id","scope","line")
);
