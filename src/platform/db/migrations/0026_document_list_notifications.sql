-- The document list and its status counts are cached per process per user (the list's subject) until the user is
-- announced on the channel document_lists_changed (src/platform/db/notified-cache.ts), like the organization lists of
-- 0024. A payload names the users whose lists may have changed, comma-separated (at most 500 per notification, well
-- under PostgreSQL's 8,000-byte payload limit); an empty payload: every user. PostgreSQL delivers a transaction's
-- notifications at its commit (to the committing connection before its COMMIT returns).
--
-- What a list shows (modules/documents/document-list.repo.ts): which workflows it holds and its totals (the read model
-- of 0020, kept from workflows and recipients only); per item the workflow's name, status, sequence, sign type, parent,
-- folder, owner, creation and sending times; the owner's name; the number of documents; the number of visible,
-- not-delegated recipients and whether any uses a digital certificate; the caller's own recipient row (id, role,
-- identity enforcement); whether the caller's email is verified; and, for a folder filter, whether the folder is the
-- caller's. Whoever may see a workflow in a list is its owner or a user holding one of its recipient rows, so a change
-- to a workflow, its recipients or its documents is announced to the workflow's owner and every user holding one of
-- its recipient rows (before and after the change).

CREATE FUNCTION announce_document_lists(p_users integer[]) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM pg_notify('document_lists_changed', string_agg(t.id::text, ','))
  FROM (SELECT d.id, (row_number() OVER (ORDER BY d.id) - 1) / 500 AS chunk
        FROM (SELECT DISTINCT u.id FROM unnest(p_users) AS u(id) WHERE u.id IS NOT NULL) d) t
  GROUP BY t.chunk;
END
$$;
--> statement-breakpoint

-- The owner and every recipient row's user of the given workflows, plus the users given (rows already gone).
CREATE FUNCTION announce_document_list_viewers(p_workflows integer[], p_users integer[]) RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
  viewers integer[];
BEGIN
  SELECT array_agg(v.id) INTO viewers FROM (
    SELECT w.owner_user_id AS id FROM workflows w WHERE w.id IN (SELECT DISTINCT i.id FROM unnest(p_workflows) AS i(id))
    UNION SELECT r.user_id FROM recipients r WHERE r.workflow_id IN (SELECT DISTINCT i.id FROM unnest(p_workflows) AS i(id))
    UNION SELECT u.id FROM unnest(p_users) AS u(id)
  ) v;
  PERFORM announce_document_lists(viewers);
END
$$;
--> statement-breakpoint

CREATE FUNCTION document_lists_on_workflows() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  ids integer[];
  users integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.id), array_agg(n.owner_user_id) INTO ids, users FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o.id), array_agg(o.owner_user_id) INTO ids, users FROM old_rows o;
  ELSE
    -- Only columns a list item shows, or that decide whether it is listed.
    SELECT array_agg(n.id), array_agg(o.owner_user_id) || array_agg(n.owner_user_id) INTO ids, users
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE o.name IS DISTINCT FROM n.name OR o.status IS DISTINCT FROM n.status OR o.sequence IS DISTINCT FROM n.sequence
      OR o.sign_type IS DISTINCT FROM n.sign_type OR o.parent_workflow_id IS DISTINCT FROM n.parent_workflow_id
      OR o.folder_id IS DISTINCT FROM n.folder_id OR o.owner_user_id IS DISTINCT FROM n.owner_user_id
      OR o.created_at IS DISTINCT FROM n.created_at OR o.sent_at IS DISTINCT FROM n.sent_at
      OR (o.deleted_at IS NULL) <> (n.deleted_at IS NULL);
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM announce_document_list_viewers(ids, users);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint

CREATE FUNCTION document_lists_on_recipients() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  ids integer[];
  users integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.workflow_id), array_agg(n.user_id) INTO ids, users FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o.workflow_id), array_agg(o.user_id) INTO ids, users FROM old_rows o;
  ELSE
    -- Only columns the list reads (its totals, counts, flags and the caller's row); a name, time or code changes nothing.
    SELECT array_agg(o.workflow_id) || array_agg(n.workflow_id), array_agg(o.user_id) || array_agg(n.user_id) INTO ids, users
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE o.workflow_id IS DISTINCT FROM n.workflow_id OR o.user_id IS DISTINCT FROM n.user_id OR o.role IS DISTINCT FROM n.role
      OR o.status IS DISTINCT FROM n.status OR o.is_hidden IS DISTINCT FROM n.is_hidden
      OR o.use_digital_cert IS DISTINCT FROM n.use_digital_cert OR o.enforce_identity IS DISTINCT FROM n.enforce_identity;
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM announce_document_list_viewers(ids, users);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint

-- A document added or removed changes its workflow's documentCount (documents never move between workflows).
CREATE FUNCTION document_lists_on_documents() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.workflow_id) INTO ids FROM new_rows n;
  ELSE
    SELECT array_agg(o.workflow_id) INTO ids FROM old_rows o;
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM announce_document_list_viewers(ids, NULL);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint

-- An account's name shows as ownerName in the lists of everyone listing one of its workflows; its verification decides
-- whether its own list holds others' workflows. An account removed: every list (rare; its workflows go with it).
CREATE FUNCTION document_lists_on_users() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('document_lists_changed', '');
    RETURN NULL;
  END IF;
  IF OLD.name IS DISTINCT FROM NEW.name THEN
    PERFORM announce_document_lists(ARRAY(
      SELECT e.user_id FROM workflows w JOIN workflow_list_entries e ON e.workflow_id = w.id WHERE w.owner_user_id = NEW.id
      UNION SELECT NEW.id));
  ELSIF (OLD.email_verified_at IS NULL) <> (NEW.email_verified_at IS NULL) THEN
    PERFORM announce_document_lists(ARRAY[NEW.id]);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint

-- A folder filter answers 404 for a folder that is not the caller's.
CREATE FUNCTION document_lists_on_folders() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM announce_document_lists(ARRAY[OLD.user_id]);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM announce_document_lists(ARRAY[NEW.user_id]);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint

CREATE FUNCTION document_lists_on_truncate() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM pg_notify('document_lists_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint

CREATE TRIGGER document_lists_workflows_insert AFTER INSERT ON workflows REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_lists_on_workflows();
--> statement-breakpoint
CREATE TRIGGER document_lists_workflows_update AFTER UPDATE ON workflows REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_lists_on_workflows();
--> statement-breakpoint
CREATE TRIGGER document_lists_workflows_delete AFTER DELETE ON workflows REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_lists_on_workflows();
--> statement-breakpoint
CREATE TRIGGER document_lists_recipients_insert AFTER INSERT ON recipients REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_lists_on_recipients();
--> statement-breakpoint
CREATE TRIGGER document_lists_recipients_update AFTER UPDATE ON recipients REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_lists_on_recipients();
--> statement-breakpoint
CREATE TRIGGER document_lists_recipients_delete AFTER DELETE ON recipients REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_lists_on_recipients();
--> statement-breakpoint
CREATE TRIGGER document_lists_documents_insert AFTER INSERT ON documents REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_lists_on_documents();
--> statement-breakpoint
CREATE TRIGGER document_lists_documents_delete AFTER DELETE ON documents REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION document_lists_on_documents();
--> statement-breakpoint
CREATE TRIGGER document_lists_users_update AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR (OLD.email_verified_at IS NULL) <> (NEW.email_verified_at IS NULL))
  EXECUTE FUNCTION document_lists_on_users();
--> statement-breakpoint
CREATE TRIGGER document_lists_users_delete AFTER DELETE ON users FOR EACH ROW
  EXECUTE FUNCTION document_lists_on_users();
--> statement-breakpoint
CREATE TRIGGER document_lists_folders AFTER INSERT OR UPDATE OR DELETE ON folders FOR EACH ROW
  EXECUTE FUNCTION document_lists_on_folders();
--> statement-breakpoint
CREATE TRIGGER document_lists_workflows_truncate AFTER TRUNCATE ON workflows FOR EACH STATEMENT EXECUTE FUNCTION document_lists_on_truncate();
--> statement-breakpoint
CREATE TRIGGER document_lists_recipients_truncate AFTER TRUNCATE ON recipients FOR EACH STATEMENT EXECUTE FUNCTION document_lists_on_truncate();
--> statement-breakpoint
CREATE TRIGGER document_lists_documents_truncate AFTER TRUNCATE ON documents FOR EACH STATEMENT EXECUTE FUNCTION document_lists_on_truncate();
--> statement-breakpoint
CREATE TRIGGER document_lists_users_truncate AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION document_lists_on_truncate();
--> statement-breakpoint
CREATE TRIGGER document_lists_folders_truncate AFTER TRUNCATE ON folders FOR EACH STATEMENT EXECUTE FUNCTION document_lists_on_truncate();
