ALTER TABLE "organizations" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "disabled_by" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_by" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
-- The operator's switch (modules/admin): the membership check (auth.repo.ts findActiveMembership) and the signing
-- links' check read users.disabled_at and organizations.disabled_at, so a change of either announces access_changed
-- (migration 0023) and every instance's cache of callers forgets what it kept.
DROP TRIGGER users_access_changed ON users;
--> statement-breakpoint
CREATE TRIGGER users_access_changed AFTER UPDATE OF id, is_guest, disabled_at OR DELETE OR TRUNCATE
  ON users FOR EACH STATEMENT EXECUTE FUNCTION announce_access_change();
--> statement-breakpoint
CREATE TRIGGER organizations_access_changed AFTER UPDATE OF id, disabled_at OR DELETE OR TRUNCATE
  ON organizations FOR EACH STATEMENT EXECUTE FUNCTION announce_access_change();
