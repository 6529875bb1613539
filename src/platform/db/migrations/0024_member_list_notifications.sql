-- A change to what an organization's member and role lists show is announced on the channel members_roles_changed,
-- with the organization's id as the payload (an empty payload: every organization). Every connection of every instance
-- LISTENs on it, and the per-process cache of those lists (src/platform/db/organization-cache.ts) forgets the
-- organization's pages when it hears one. A member page shows the membership (every column), the account's name,
-- email and whether it is a guest, and the role's name; a role page shows the role and how many members hold it. So:
-- any membership or role row written, and an account's name, email or guest flag changed (announced for each
-- organization the account belongs to). PostgreSQL folds equal notifications of one transaction into one, delivered
-- at its commit (to the committing connection before its COMMIT returns).

CREATE FUNCTION announce_members_roles_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM pg_notify('members_roles_changed', OLD.organization_id::text);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM pg_notify('members_roles_changed', NEW.organization_id::text);
  END IF;
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
CREATE FUNCTION announce_every_organization() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM pg_notify('members_roles_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER memberships_lists_changed AFTER INSERT OR UPDATE OR DELETE
  ON memberships FOR EACH ROW EXECUTE FUNCTION announce_members_roles_change();
--> statement-breakpoint
CREATE TRIGGER roles_lists_changed AFTER INSERT OR UPDATE OR DELETE
  ON roles FOR EACH ROW EXECUTE FUNCTION announce_members_roles_change();
--> statement-breakpoint
CREATE TRIGGER users_lists_changed AFTER UPDATE OF name, email, is_guest ON users FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.email IS DISTINCT FROM NEW.email OR OLD.is_guest IS DISTINCT FROM NEW.is_guest)
  EXECUTE FUNCTION announce_account_change();
--> statement-breakpoint
CREATE TRIGGER memberships_lists_truncated AFTER TRUNCATE ON memberships FOR EACH STATEMENT EXECUTE FUNCTION announce_every_organization();
--> statement-breakpoint
CREATE TRIGGER roles_lists_truncated AFTER TRUNCATE ON roles FOR EACH STATEMENT EXECUTE FUNCTION announce_every_organization();
--> statement-breakpoint
CREATE TRIGGER users_lists_truncated AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION announce_every_organization();
