-- The document list's read model (schema/document-list.ts): workflow_list_entries, one row per (user, workflow) the
-- user's list shows, and workflow_list_counts, an append-only ledger of the list's totals. Both are kept here, by
-- statement triggers on workflows and recipients, in the statement that changes those tables, whichever code makes
-- the change (docs/decisions.md "Document list at 100,000 workflows").
--
-- The rules (RUNTIME.md "Document list"; the filters of modules/documents/document-list.service.ts):
--   owned     the user owns the workflow and it is not deleted: listed, any status (Power Survey children too);
--   received  the user holds a recipient row of a workflow someone else owns, which is past DRAFT, not deleted
--             and not a Power Survey parent (its recipients act on their own child workflows): listed;
--   actions   Pending / Signed / Viewed: a SENT, not deleted workflow where the user holds a non-CC row that is
--             SENT or VIEWED / SIGNED or APPROVED / VIEWED (a Power Survey parent only for its owner).
-- Whether the user's email is verified (others' workflows are hidden until it is) is applied when reading.
--
-- The functions that run the big statements use generic plans (plan_cache_mode): a custom plan per call would cost a
-- millisecond of planning for a tenth of one of work, on every write to workflows and recipients.
--
-- At the end: template_analytics_marks (schema/template-analytics.ts), a mark per template whose analytics may have
-- changed, for the exact cache of template analytics.

-- The counted keys of one entry: (scope, status, folder, owned), each counting 1.
CREATE FUNCTION workflow_list_keys(p_owned boolean, p_status text, p_folder_id integer, p_child boolean, p_pending boolean, p_signed boolean, p_viewed boolean)
RETURNS TABLE (scope text, status text, folder_id integer, owned boolean)
LANGUAGE sql IMMUTABLE
AS $$
  SELECT CASE WHEN p_owned THEN 'OWNED' ELSE 'RECEIVED' END, p_status, CASE WHEN p_owned THEN coalesce(p_folder_id, 0) ELSE 0 END, p_owned
  WHERE p_status IS NOT NULL
  UNION ALL
  -- The folder filter with an action filter holds the owner's own workflows filed there, survey children excepted.
  SELECT 'ACTION', a.category, CASE WHEN p_owned AND NOT p_child THEN coalesce(p_folder_id, 0) ELSE 0 END, p_owned
  FROM (VALUES ('PENDING', p_pending), ('SIGNED', p_signed), ('VIEWED', p_viewed)) AS a(category, active)
  WHERE a.active
$$;
--> statement-breakpoint

-- Folds users' ledger rows into one per key (plus one TOUCH row, so a fold is seen as a change by cached search
-- totals). Rows another transaction is folding are skipped, never waited for: writers do not queue behind each other.
CREATE FUNCTION workflow_list_compact(p_users integer[]) RETURNS void
LANGUAGE sql
AS $$
  WITH locked AS MATERIALIZED (
    SELECT l.id FROM unnest(p_users) AS u(user_id) JOIN workflow_list_counts l ON l.user_id = u.user_id FOR UPDATE OF l SKIP LOCKED
  ),
  gone AS (
    DELETE FROM workflow_list_counts c USING locked k WHERE c.id = k.id
    RETURNING c.user_id, c.scope, c.status, c.folder_id, c.owned, c.n
  )
  INSERT INTO workflow_list_counts (user_id, scope, status, folder_id, owned, n)
  SELECT g.user_id, g.scope, g.status, g.folder_id, g.owned, sum(g.n)::int FROM gone g WHERE g.scope <> 'TOUCH'
  GROUP BY g.user_id, g.scope, g.status, g.folder_id, g.owned HAVING sum(g.n) <> 0
  UNION ALL
  SELECT DISTINCT g.user_id, 'TOUCH', '', 0, true, 0 FROM gone g
$$;
--> statement-breakpoint

-- Recomputes the entries of (user, workflow) pairs from the tables as they are now, and appends the difference of
-- their keys to the ledger: the pairs given (p_users[i], p_workflows[i]), and every pair of the workflows p_whole
-- (owner, recipients, and whoever has an entry now). Recomputing (rather than applying each change as a delta) keeps
-- entries right whatever order changes of the two tables arrive in (a cascade, several rows in one statement).
CREATE FUNCTION workflow_list_refresh(p_users integer[], p_workflows integer[], p_whole integer[]) RETURNS void
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  fold integer[];
BEGIN
  -- Joins on unnest, not "= ANY (array)": a large array parameter would be searched linearly for every row.
  WITH pairs AS (
    SELECT t.user_id, t.workflow_id FROM unnest(p_users, p_workflows) AS t(user_id, workflow_id)
    WHERE t.user_id IS NOT NULL AND t.workflow_id IS NOT NULL
    UNION SELECT w.owner_user_id, w.id FROM unnest(p_whole) AS i(id) JOIN workflows w ON w.id = i.id
    UNION SELECT r.user_id, r.workflow_id FROM unnest(p_whole) AS i(id) JOIN recipients r ON r.workflow_id = i.id
    UNION SELECT e.user_id, e.workflow_id FROM unnest(p_whole) AS i(id) JOIN workflow_list_entries e ON e.workflow_id = i.id
  ),
  held AS (
    SELECT p.user_id, p.workflow_id,
      bool_or(r.id IS NOT NULL) AS has_row,
      coalesce(bool_or(r.role <> 'CC' AND r.status IN ('SENT', 'VIEWED')), false) AS pending,
      coalesce(bool_or(r.role <> 'CC' AND r.status IN ('SIGNED', 'APPROVED')), false) AS signed,
      coalesce(bool_or(r.role <> 'CC' AND r.status = 'VIEWED'), false) AS viewed
    FROM pairs p LEFT JOIN recipients r ON r.workflow_id = p.workflow_id AND r.user_id = p.user_id
    GROUP BY p.user_id, p.workflow_id
  ),
  computed AS (
    SELECT h.user_id, h.workflow_id, h.user_id = w.owner_user_id AS owned,
      CASE WHEN w.deleted_at IS NOT NULL THEN NULL
           WHEN h.user_id = w.owner_user_id THEN w.status
           WHEN h.has_row AND w.status <> 'DRAFT' AND NOT (w.sequence = 'SURVEY' AND w.parent_workflow_id IS NULL) THEN w.status
      END AS status,
      CASE WHEN h.user_id = w.owner_user_id THEN w.folder_id END AS folder_id,
      w.parent_workflow_id IS NOT NULL AS child,
      h.pending AND a.acts AS pending, h.signed AND a.acts AS signed, h.viewed AND a.acts AS viewed
    FROM held h JOIN workflows w ON w.id = h.workflow_id
    CROSS JOIN LATERAL (SELECT w.status = 'SENT' AND w.deleted_at IS NULL
      AND (w.sequence <> 'SURVEY' OR w.parent_workflow_id IS NOT NULL OR w.owner_user_id = h.user_id) AS acts) a
  ),
  wanted AS (SELECT * FROM computed c WHERE c.status IS NOT NULL OR c.pending OR c.signed OR c.viewed),
  existing AS (
    SELECT e.* FROM workflow_list_entries e JOIN pairs p ON p.user_id = e.user_id AND p.workflow_id = e.workflow_id
  ),
  changed AS (
    SELECT coalesce(n.user_id, o.user_id) AS user_id, coalesce(n.workflow_id, o.workflow_id) AS workflow_id, n.user_id IS NOT NULL AS present,
      n.owned AS n_owned, n.status AS n_status, n.folder_id AS n_folder_id, n.child AS n_child, n.pending AS n_pending, n.signed AS n_signed, n.viewed AS n_viewed,
      o.owned AS o_owned, o.status AS o_status, o.folder_id AS o_folder_id, o.child AS o_child, o.pending AS o_pending, o.signed AS o_signed, o.viewed AS o_viewed
    FROM wanted n FULL JOIN existing o ON o.user_id = n.user_id AND o.workflow_id = n.workflow_id
    WHERE (n.owned, n.status, n.folder_id, n.child, n.pending, n.signed, n.viewed)
      IS DISTINCT FROM (o.owned, o.status, o.folder_id, o.child, o.pending, o.signed, o.viewed)
  ),
  upserted AS (
    INSERT INTO workflow_list_entries (user_id, workflow_id, owned, status, folder_id, child, pending, signed, viewed)
    SELECT c.user_id, c.workflow_id, c.n_owned, c.n_status, c.n_folder_id, c.n_child, c.n_pending, c.n_signed, c.n_viewed FROM changed c WHERE c.present
    ON CONFLICT (user_id, workflow_id) DO UPDATE SET owned = excluded.owned, status = excluded.status, folder_id = excluded.folder_id,
      child = excluded.child, pending = excluded.pending, signed = excluded.signed, viewed = excluded.viewed
  ),
  removed AS (
    DELETE FROM workflow_list_entries e USING changed c WHERE NOT c.present AND e.user_id = c.user_id AND e.workflow_id = c.workflow_id
  ),
  -- Per pair, never netted across workflows: every change leaves a row (cached search totals rely on it).
  appended AS (
    INSERT INTO workflow_list_counts (user_id, scope, status, folder_id, owned, n)
    SELECT d.user_id, d.scope, d.status, d.folder_id, d.owned, sum(d.n)::int FROM (
      SELECT c.user_id, c.workflow_id, k.scope, k.status, k.folder_id, k.owned, 1 AS n FROM changed c
        CROSS JOIN LATERAL workflow_list_keys(c.n_owned, c.n_status, c.n_folder_id, c.n_child, c.n_pending, c.n_signed, c.n_viewed) k
      UNION ALL
      SELECT c.user_id, c.workflow_id, k.scope, k.status, k.folder_id, k.owned, -1 FROM changed c
        CROSS JOIN LATERAL workflow_list_keys(c.o_owned, c.o_status, c.o_folder_id, c.o_child, c.o_pending, c.o_signed, c.o_viewed) k
    ) d
    GROUP BY d.user_id, d.workflow_id, d.scope, d.status, d.folder_id, d.owned HAVING sum(d.n) <> 0
    RETURNING id, user_id
  )
  -- About one appended row in 32 folds its user's ledger, so a user's rows stay few.
  SELECT array_agg(DISTINCT a.user_id) FILTER (WHERE a.id % 32 = 0) INTO fold FROM appended a;
  IF fold IS NOT NULL THEN
    PERFORM workflow_list_compact(fold);
  END IF;
END
$$;
--> statement-breakpoint

-- Inserts and deletes: one call per statement over its rows (a bulk insert is one set-based refresh).
CREATE FUNCTION workflow_list_on_workflows() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.id) INTO ids FROM new_rows n;
  ELSE
    SELECT array_agg(o.id) INTO ids FROM old_rows o;
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM workflow_list_refresh(NULL, NULL, ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint

-- Updates: per row, and only for rows whose change the list reads (the trigger's WHEN): most updates of a workflow
-- (seal state, reminders, settings) and of a recipient (times, names) never call a function.
CREATE FUNCTION workflow_list_on_workflow_update() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM workflow_list_refresh(NULL, NULL, ARRAY[NEW.id]);
  RETURN NULL;
END
$$;
--> statement-breakpoint

-- A rename changes no total, but it may change what a search finds: a TOUCH row tells cached search totals.
CREATE FUNCTION workflow_list_on_workflow_rename() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  INSERT INTO workflow_list_counts (user_id, scope, status, folder_id, owned, n)
  SELECT e.user_id, 'TOUCH', '', 0, true, 0 FROM workflow_list_entries e WHERE e.workflow_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint

CREATE FUNCTION workflow_list_on_recipients() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  users integer[];
  wfs integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.user_id), array_agg(n.workflow_id) INTO users, wfs FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o.user_id), array_agg(o.workflow_id) INTO users, wfs FROM old_rows o;
  ELSE
    -- A row-level update (below): the row's pair before and after.
    users := ARRAY[OLD.user_id, NEW.user_id];
    wfs := ARRAY[OLD.workflow_id, NEW.workflow_id];
  END IF;
  IF users IS NULL THEN
    RETURN NULL;
  END IF;
  -- Envelope writes hold the workflow's row lock (ARCHITECTURE.md), so this is normally a lock already held. It
  -- makes sure no other transaction changes the same workflow between this statement and its commit: the next
  -- statement recomputes from what is committed, never from a stale view.
  PERFORM 1 FROM workflows w WHERE w.id IN (SELECT DISTINCT i.id FROM unnest(wfs) AS i(id)) ORDER BY w.id FOR NO KEY UPDATE;
  PERFORM workflow_list_refresh(users, wfs, NULL);
  RETURN NULL;
END
$$;
--> statement-breakpoint

CREATE TRIGGER workflow_list_workflows_insert AFTER INSERT ON workflows REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION workflow_list_on_workflows();
--> statement-breakpoint
CREATE TRIGGER workflow_list_workflows_delete AFTER DELETE ON workflows REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION workflow_list_on_workflows();
--> statement-breakpoint
CREATE TRIGGER workflow_list_workflows_update AFTER UPDATE ON workflows FOR EACH ROW
  WHEN (OLD.owner_user_id IS DISTINCT FROM NEW.owner_user_id OR OLD.status IS DISTINCT FROM NEW.status
    OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) OR OLD.folder_id IS DISTINCT FROM NEW.folder_id
    OR OLD.sequence IS DISTINCT FROM NEW.sequence OR OLD.parent_workflow_id IS DISTINCT FROM NEW.parent_workflow_id)
  EXECUTE FUNCTION workflow_list_on_workflow_update();
--> statement-breakpoint
CREATE TRIGGER workflow_list_workflows_rename AFTER UPDATE ON workflows FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION workflow_list_on_workflow_rename();
--> statement-breakpoint
CREATE TRIGGER workflow_list_recipients_insert AFTER INSERT ON recipients REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION workflow_list_on_recipients();
--> statement-breakpoint
CREATE TRIGGER workflow_list_recipients_delete AFTER DELETE ON recipients REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION workflow_list_on_recipients();
--> statement-breakpoint
CREATE TRIGGER workflow_list_recipients_update AFTER UPDATE ON recipients FOR EACH ROW
  WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.workflow_id IS DISTINCT FROM NEW.workflow_id
    OR OLD.role IS DISTINCT FROM NEW.role OR OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION workflow_list_on_recipients();
--> statement-breakpoint

-- What exists already, then one ledger row per key and user.
SELECT workflow_list_refresh(array_agg(p.user_id), array_agg(p.workflow_id), NULL) FROM (
  SELECT w.owner_user_id AS user_id, w.id AS workflow_id FROM workflows w
  UNION SELECT r.user_id, r.workflow_id FROM recipients r
) p;
--> statement-breakpoint
WITH gone AS (DELETE FROM workflow_list_counts RETURNING user_id, scope, status, folder_id, owned, n)
INSERT INTO workflow_list_counts (user_id, scope, status, folder_id, owned, n)
SELECT g.user_id, g.scope, g.status, g.folder_id, g.owned, sum(g.n)::int FROM gone g
GROUP BY g.user_id, g.scope, g.status, g.folder_id, g.owned HAVING sum(g.n) <> 0;
--> statement-breakpoint

-- Template analytics (schema/template-analytics.ts): a mark per template whose analytics may have changed, in the
-- statement that changed it. About one mark in 32 folds its template's marks into one (a new one: a fold must still
-- read as a change to answers cached before it); marks another transaction is folding are skipped, never waited for.
CREATE FUNCTION template_analytics_mark(p_templates integer[]) RETURNS void
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  fold integer[];
BEGIN
  WITH added AS (
    INSERT INTO template_analytics_marks (template_id)
    SELECT DISTINCT t.id FROM unnest(p_templates) AS t(id) WHERE t.id IS NOT NULL
    RETURNING id, template_id
  )
  SELECT array_agg(a.template_id) FILTER (WHERE a.id % 32 = 0) INTO fold FROM added a;
  IF fold IS NOT NULL THEN
    WITH locked AS MATERIALIZED (
      SELECT m.id FROM unnest(fold) AS f(template_id) JOIN template_analytics_marks m ON m.template_id = f.template_id FOR UPDATE OF m SKIP LOCKED
    ),
    gone AS (DELETE FROM template_analytics_marks m USING locked k WHERE m.id = k.id RETURNING m.template_id)
    INSERT INTO template_analytics_marks (template_id) SELECT DISTINCT g.template_id FROM gone g;
  END IF;
END
$$;
--> statement-breakpoint

CREATE FUNCTION template_analytics_on_workflows() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.template_id) INTO ids FROM new_rows n WHERE n.template_id IS NOT NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o.template_id) INTO ids FROM old_rows o WHERE o.template_id IS NOT NULL;
  ELSE
    -- A row-level update (below) of a workflow made from a template.
    ids := ARRAY[OLD.template_id, NEW.template_id];
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM template_analytics_mark(ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint

CREATE FUNCTION template_analytics_on_field_events() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.template_id) INTO ids FROM new_rows n WHERE n.template_id IS NOT NULL;
  ELSE
    SELECT array_agg(o.template_id) INTO ids FROM old_rows o WHERE o.template_id IS NOT NULL;
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM template_analytics_mark(ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint

CREATE TRIGGER template_analytics_workflows_insert AFTER INSERT ON workflows REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION template_analytics_on_workflows();
--> statement-breakpoint
CREATE TRIGGER template_analytics_workflows_update AFTER UPDATE ON workflows FOR EACH ROW
  -- What the analytics read of a workflow: its template, status, sent and completed times, deletion.
  WHEN ((OLD.template_id IS NOT NULL OR NEW.template_id IS NOT NULL)
    AND (OLD.template_id IS DISTINCT FROM NEW.template_id OR OLD.status IS DISTINCT FROM NEW.status OR OLD.sent_at IS DISTINCT FROM NEW.sent_at
      OR OLD.completed_at IS DISTINCT FROM NEW.completed_at OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)))
  EXECUTE FUNCTION template_analytics_on_workflows();
--> statement-breakpoint
CREATE TRIGGER template_analytics_workflows_delete AFTER DELETE ON workflows REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION template_analytics_on_workflows();
--> statement-breakpoint
CREATE TRIGGER template_analytics_field_events_insert AFTER INSERT ON field_events REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION template_analytics_on_field_events();
--> statement-breakpoint
CREATE TRIGGER template_analytics_field_events_delete AFTER DELETE ON field_events REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION template_analytics_on_field_events();
