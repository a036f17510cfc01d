CREATE TABLE "suggestion_feature_totals" (
	"organization_id" text NOT NULL,
	"feature" text NOT NULL,
	"emails" integer NOT NULL,
	"projects" integer NOT NULL,
	CONSTRAINT "suggestion_feature_totals_organization_id_feature_pk" PRIMARY KEY("organization_id","feature")
);
--> statement-breakpoint
CREATE TABLE "suggestion_features" (
	"organization_id" text NOT NULL,
	"feature" text NOT NULL,
	"project_id" text NOT NULL,
	"emails" integer NOT NULL,
	CONSTRAINT "suggestion_features_organization_id_feature_project_id_pk" PRIMARY KEY("organization_id","feature","project_id")
);
