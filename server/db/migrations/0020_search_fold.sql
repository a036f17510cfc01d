-- Hand-written (the functions and extensions are not drizzle's): "find anything" (issues 37, 39). The project
-- search matches words in any order, with typos, accents and punctuation ignored (pg_trgm over a folded key);
-- filed-mail search drops accents on both sides. Both extensions are trusted: a database owner may create them.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public;--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could be changed): generated columns and indexes need an IMMUTABLE
-- function, so this one names the dictionary and schema outright, which also keeps it working whatever the
-- search_path of a restore or an index rebuild.
CREATE OR REPLACE FUNCTION public.search_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;--> statement-breakpoint
-- Text as the searches compare it: lower case, no accents, apostrophes dropped ("St Mary's" is "st marys"),
-- letters and digits apart ("Pier9" is "pier 9"), any other punctuation a space.
CREATE OR REPLACE FUNCTION public.search_fold(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT btrim(regexp_replace(regexp_replace(regexp_replace(
    replace(lower(public.search_unaccent($1)), '''', ''),
    '([[:alpha:]])([[:digit:]])', '\1 \2', 'g'),
    '([[:digit:]])([[:alpha:]])', '\1 \2', 'g'),
    '[[:space:][:punct:]]+', ' ', 'g')) $$;--> statement-breakpoint
-- What the project search reads: name, code and aliases folded. array_to_string is STABLE only because of
-- element types whose output could change; for text it cannot.
CREATE OR REPLACE FUNCTION public.project_search_key(name text, code text, aliases text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT public.search_fold(concat_ws(' ', name, code, array_to_string(aliases, ' '))) $$;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "search_key" text GENERATED ALWAYS AS (project_search_key(name, code, aliases)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "projects_search_key_idx" ON "projects" USING gin ("search_key" gin_trgm_ops);--> statement-breakpoint
-- Changing a generated column's expression is a drop and an add (as in 0012); dropping it dropped its index.
ALTER TABLE "filed_emails" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "filed_emails" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', search_unaccent(translate(coalesce(subject, ''), '<>', '  '))), 'A') || setweight(to_tsvector('english', search_unaccent(translate(coalesce(search_text, ''), '<>', '  '))), 'B')) STORED;--> statement-breakpoint
CREATE INDEX "filed_emails_search_idx" ON "filed_emails" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "filed_emails_org_filed_idx" ON "filed_emails" USING btree ("organization_id","filed_at","id");--> statement-breakpoint
CREATE INDEX "filed_emails_subject_fold_idx" ON "filed_emails" USING gin (search_fold(subject) gin_trgm_ops);
