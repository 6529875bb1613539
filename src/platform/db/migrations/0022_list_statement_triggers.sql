-- The list read model's update triggers, per statement instead of per row (measured with bench/survey.ts: sending a
-- batch of 250 Power Survey children updated 250 workflows and 250 recipients, and the per-row triggers called
-- workflow_list_refresh 500 times, 1-1.8 s per batch and growing with the table). Now one call per statement with
-- every changed row, as the insert and delete triggers already did; rows whose change the list does not read (the
-- old WHEN clauses, now a filter over the transition tables) are left out, and a statement with none calls nothing.

CREATE FUNCTION workflow_list_on_workflow_updates() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  ids integer[];
BEGIN
  SELECT array_agg(n.id) INTO ids FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE o.owner_user_id IS DISTINCT FROM n.owner_user_id OR o.status IS DISTINCT FROM n.status
    OR (o.deleted_at IS NULL) <> (n.deleted_at IS NULL) OR o.folder_id IS DISTINCT FROM n.folder_id
    OR o.sequence IS DISTINCT FROM n.sequence OR o.parent_workflow_id IS DISTINCT FROM n.parent_workflow_id;
  IF ids IS NOT NULL THEN
    PERFORM workflow_list_refresh(NULL, NULL, ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint

CREATE FUNCTION workflow_list_on_recipient_updates() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  users integer[];
  wfs integer[];
BEGIN
  -- Each changed row's pair before and after.
  SELECT array_agg(p.user_id), array_agg(p.workflow_id) INTO users, wfs FROM (
    SELECT o.user_id, o.workflow_id, n.user_id AS new_user_id, n.workflow_id AS new_workflow_id
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE o.user_id IS DISTINCT FROM n.user_id OR o.workflow_id IS DISTINCT FROM n.workflow_id
      OR o.role IS DISTINCT FROM n.role OR o.status IS DISTINCT FROM n.status
  ) c CROSS JOIN LATERAL (VALUES (c.user_id, c.workflow_id), (c.new_user_id, c.new_workflow_id)) AS p(user_id, workflow_id);
  IF users IS NULL THEN
    RETURN NULL;
  END IF;
  -- As in workflow_list_on_recipients: the workflows' row locks, normally already held by the envelope write.
  PERFORM 1 FROM workflows w WHERE w.id IN (SELECT DISTINCT i.id FROM unnest(wfs) AS i(id)) ORDER BY w.id FOR NO KEY UPDATE;
  PERFORM workflow_list_refresh(users, wfs, NULL);
  RETURN NULL;
END
$$;
--> statement-breakpoint

DROP TRIGGER workflow_list_workflows_update ON workflows;
--> statement-breakpoint
CREATE TRIGGER workflow_list_workflows_update AFTER UPDATE ON workflows REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION workflow_list_on_workflow_updates();
--> statement-breakpoint
DROP TRIGGER workflow_list_recipients_update ON recipients;
--> statement-breakpoint
CREATE TRIGGER workflow_list_recipients_update AFTER UPDATE ON recipients REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION workflow_list_on_recipient_updates();
--> statement-breakpoint
-- workflow_list_on_recipients keeps its row-level branch, now unused: it still serves the insert and delete triggers.
DROP FUNCTION workflow_list_on_workflow_update();
