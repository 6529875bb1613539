-- A change to what a signed-in caller may do is announced on the channel access_changed: every connection of every
-- instance LISTENs on it, and the per-process cache of callers' memberships (src/modules/auth/membership-cache.ts) is
-- emptied when it hears one. The columns are those the membership check reads (auth.repo.ts findActiveMembership):
-- inserts cannot make a cached membership wrong (only memberships found are kept), so only updates of those columns,
-- deletes and truncates announce. Per statement, and PostgreSQL folds equal notifications of one transaction into one,
-- delivered at its commit (to the committing connection before its COMMIT returns).

CREATE FUNCTION announce_access_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM pg_notify('access_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER memberships_access_changed AFTER UPDATE OF id, user_id, organization_id, status, is_owner, role_id OR DELETE OR TRUNCATE
  ON memberships FOR EACH STATEMENT EXECUTE FUNCTION announce_access_change();
--> statement-breakpoint
CREATE TRIGGER roles_access_changed AFTER UPDATE OF id, organization_id, status, permissions OR DELETE OR TRUNCATE
  ON roles FOR EACH STATEMENT EXECUTE FUNCTION announce_access_change();
--> statement-breakpoint
CREATE TRIGGER users_access_changed AFTER UPDATE OF id, is_guest OR DELETE OR TRUNCATE
  ON users FOR EACH STATEMENT EXECUTE FUNCTION announce_access_change();
--> statement-breakpoint
CREATE TRIGGER business_apps_access_changed AFTER UPDATE OF id, organization_id, status OR DELETE OR TRUNCATE
  ON business_apps FOR EACH STATEMENT EXECUTE FUNCTION announce_access_change();
