-- Template analytics are cached per process until their template is announced on the channel
-- template_analytics_changed (src/platform/db/notified-cache.ts), like the organization lists of 0024. The triggers of
-- 0020 call template_analytics_mark with the templates whose analytics a statement changed (a workflow made from them
-- changing status, times or deletion; field events of them): it now announces them instead of appending marks, and
-- the marks, which the cache read on every request to check its answer, go. PostgreSQL folds equal notifications of
-- one transaction into one.
CREATE OR REPLACE FUNCTION template_analytics_mark(p_templates integer[]) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM pg_notify('template_analytics_changed', t.id::text)
  FROM (SELECT DISTINCT u.id FROM unnest(p_templates) AS u(id) WHERE u.id IS NOT NULL) t;
END
$$;
--> statement-breakpoint
DROP TABLE "template_analytics_marks";
