-- Changes to what an organization's lists show are announced with the organization's id as the payload (an empty
-- payload: every organization), on one channel per group of lists. Every connection of every instance LISTENs, and
-- the per-process caches of those lists (src/platform/db/notified-cache.ts) forget the organization's answers
-- when they hear one. PostgreSQL folds equal notifications of one transaction into one, delivered at its commit (to the
-- committing connection before its COMMIT returns).
--
-- members_roles_changed: a member page shows the membership (every column), the account's name, email and whether it
-- is a guest, and the role's name; a role page shows the role and how many members hold it. So: any membership or role
-- row written, and an account's name, email or guest flag changed (announced for each organization the account
-- belongs to).
-- templates_changed: the template list and names show the organization's templates outside the folders hidden from
-- the caller, which follow from the folders (parent, access). So: any template or template folder row written.

CREATE FUNCTION announce_organization_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM pg_notify(TG_ARGV[0], OLD.organization_id::text);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM pg_notify(TG_ARGV[0], NEW.organization_id::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION announce_every_organization() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM pg_notify(TG_ARGV[0], '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION announce_account_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM pg_notify('members_roles_changed', m.organization_id::text) FROM memberships m WHERE m.user_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER memberships_lists_changed AFTER INSERT OR UPDATE OR DELETE
  ON memberships FOR EACH ROW EXECUTE FUNCTION announce_organization_change('members_roles_changed');
--> statement-breakpoint
CREATE TRIGGER roles_lists_changed AFTER INSERT OR UPDATE OR DELETE
  ON roles FOR EACH ROW EXECUTE FUNCTION announce_organization_change('members_roles_changed');
--> statement-breakpoint
CREATE TRIGGER users_lists_changed AFTER UPDATE OF name, email, is_guest ON users FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.email IS DISTINCT FROM NEW.email OR OLD.is_guest IS DISTINCT FROM NEW.is_guest)
  EXECUTE FUNCTION announce_account_change();
--> statement-breakpoint
CREATE TRIGGER memberships_lists_truncated AFTER TRUNCATE ON memberships FOR EACH STATEMENT EXECUTE FUNCTION announce_every_organization('members_roles_changed');
--> statement-breakpoint
CREATE TRIGGER roles_lists_truncated AFTER TRUNCATE ON roles FOR EACH STATEMENT EXECUTE FUNCTION announce_every_organization('members_roles_changed');
--> statement-breakpoint
CREATE TRIGGER users_lists_truncated AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION announce_every_organization('members_roles_changed');
--> statement-breakpoint
CREATE TRIGGER templates_lists_changed AFTER INSERT OR UPDATE OR DELETE
  ON templates FOR EACH ROW EXECUTE FUNCTION announce_organization_change('templates_changed');
--> statement-breakpoint
CREATE TRIGGER template_folders_lists_changed AFTER INSERT OR UPDATE OR DELETE
  ON template_folders FOR EACH ROW EXECUTE FUNCTION announce_organization_change('templates_changed');
--> statement-breakpoint
CREATE TRIGGER templates_lists_truncated AFTER TRUNCATE ON templates FOR EACH STATEMENT EXECUTE FUNCTION announce_every_organization('templates_changed');
--> statement-breakpoint
CREATE TRIGGER template_folders_lists_truncated AFTER TRUNCATE ON template_folders FOR EACH STATEMENT EXECUTE FUNCTION announce_every_organization('templates_changed');
