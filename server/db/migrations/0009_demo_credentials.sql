CREATE TABLE "demo_credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"credentials" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
