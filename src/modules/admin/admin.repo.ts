import { and, asc, count, eq, gt, ilike, inArray, isNull, or, sql, type Column, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { activities, memberships, organizations, packages, users, workflows } from '../../platform/db/schema/index.ts';

/**
 * The operator's reads across every organization (modules/admin). The operator's changes go through the module that
 * owns the rows (billing for packages, signing for seals), but for the operator's own switch: the disabled_* columns
 * of users and organizations (src/platform/db/schema/owners.ts), written here.
 */

/** `search` as a filter: a substring of any of `columns`, ignoring case (LIKE wildcards literal), or, all digits, an exact `id`. */
function searchFilter(search: string | undefined, id: Column, columns: Column[]): SQL | undefined {
  const text = search?.trim();
  if (!text) return undefined;
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const byId = /^\d{1,9}$/.test(text) ? [eq(id, Number(text))] : [];
  return or(...byId, ...columns.map((column) => ilike(column, pattern)));
}

const organizationColumns = {
  id: organizations.id,
  name: organizations.name,
  createdAt: organizations.createdAt,
  ownerUserId: organizations.ownerUserId,
  ownerName: users.name,
  ownerEmail: users.email,
  packageId: packages.id,
  packageName: packages.name,
  creditsPrice: packages.creditsPrice,
  preset: packages.preset,
  packageStatus: packages.status,
  credits: organizations.credits,
  packageStartedAt: organizations.packageStartedAt,
  packageExpiresAt: organizations.packageExpiresAt,
  servicePlanActive: organizations.servicePlanActive,
  disabledAt: organizations.disabledAt,
  disabledBy: organizations.disabledBy,
  disabledReason: organizations.disabledReason,
};

/**
 * A correlated count as a select column. Built as a query rather than written in sql``: Drizzle writes a select
 * column's sql`` references unqualified, which inside the subquery would name the inner table's columns.
 */
function countOf(db: DbOrTx, table: typeof memberships | typeof activities, where: SQL | undefined) {
  return sql<number>`(${db.select({ n: sql<number>`count(*)::int` }).from(table).where(where)})`;
}

function organizationsWith(db: DbOrTx, where: SQL | undefined) {
  const activeMembers = countOf(
    db,
    memberships,
    and(eq(memberships.organizationId, organizations.id), eq(memberships.status, 'ACTIVE')),
  );
  return db
    .select({ ...organizationColumns, activeMembers })
    .from(organizations)
    .innerJoin(packages, eq(packages.id, organizations.packageId))
    .leftJoin(users, eq(users.id, organizations.ownerUserId))
    .where(where);
}

export type OrganizationRow = Awaited<ReturnType<typeof organizationsWith>>[number];

export async function findOrganizationsPage(
  db: DbOrTx,
  search: string | undefined,
  limit: number,
  offset: number,
): Promise<{ rows: OrganizationRow[]; total: number }> {
  const where = searchFilter(search, organizations.id, [organizations.name, users.name, users.email]);
  const [rows, [{ total }]] = await Promise.all([
    organizationsWith(db, where).orderBy(asc(organizations.id)).limit(limit).offset(offset),
    db
      .select({ total: count() })
      .from(organizations)
      .leftJoin(users, eq(users.id, organizations.ownerUserId))
      .where(where),
  ]);
  return { rows, total };
}

export async function findOrganization(db: DbOrTx, organizationId: number): Promise<OrganizationRow | null> {
  const [row] = await organizationsWith(db, eq(organizations.id, organizationId));
  return row ?? null;
}

export type UserRow = Awaited<ReturnType<typeof usersWhere>>['rows'][number];

/** Users by id, each with its memberships (any status) and their organizations' names, in two queries. */
export async function findUsersPage(db: DbOrTx, search: string | undefined, limit: number, offset: number) {
  return usersWhere(db, searchFilter(search, users.id, [users.name, users.email]), limit, offset);
}

async function usersWhere(db: DbOrTx, where: SQL | undefined, limit: number, offset: number) {
  const [found, [{ total }]] = await Promise.all([
    db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        isGuest: users.isGuest,
        emailVerifiedAt: users.emailVerifiedAt,
        twoFactorEnabled: users.twoFactorEnabled,
        createdAt: users.createdAt,
        disabledAt: users.disabledAt,
        disabledBy: users.disabledBy,
        disabledReason: users.disabledReason,
      })
      .from(users)
      .where(where)
      .orderBy(asc(users.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  const ids = found.map((u) => u.id);
  const links =
    ids.length === 0
      ? []
      : await db
          .select({
            userId: memberships.userId,
            organizationId: memberships.organizationId,
            name: organizations.name,
            isOwner: memberships.isOwner,
            status: memberships.status,
          })
          .from(memberships)
          .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
          .where(inArray(memberships.userId, ids))
          .orderBy(asc(memberships.organizationId));
  const rows = found.map((user) => ({
    ...user,
    organizations: links.filter((l) => l.userId === user.id).map(({ userId: _userId, ...rest }) => rest),
  }));
  return { rows, total };
}

export async function findPackagesPage(db: DbOrTx, search: string | undefined, limit: number, offset: number) {
  const where = searchFilter(search, packages.id, [packages.name, packages.description]);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(packages).where(where).orderBy(asc(packages.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(packages).where(where),
  ]);
  return { rows, total };
}

/**
 * Finished workflows whose seal is PENDING or FAILED, the longest waiting first, with the number of runs that
 * gave up (SEAL_FAILED audit rows). No index serves seal_status: the operator's occasional look reads the
 * finished workflows once.
 */
export async function findAwaitingSealPage(db: DbOrTx, sealStatuses: readonly string[], limit: number, offset: number) {
  const where = and(
    inArray(workflows.status, ['COMPLETED', 'APPROVED']),
    inArray(workflows.sealStatus, [...sealStatuses]),
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: workflows.id,
        organizationId: workflows.organizationId,
        ownerUserId: workflows.ownerUserId,
        name: workflows.name,
        status: workflows.status,
        completedAt: workflows.completedAt,
        sealStatus: workflows.sealStatus,
        sealError: workflows.sealError,
        failedRuns: countOf(
          db,
          activities,
          and(eq(activities.workflowId, workflows.id), eq(activities.kind, 'SEAL_FAILED')),
        ),
      })
      .from(workflows)
      .where(where)
      .orderBy(sql`${workflows.completedAt} asc nulls first`, asc(workflows.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(workflows).where(where),
  ]);
  return { rows, total };
}

export type AwaitingSealRow = Awaited<ReturnType<typeof findAwaitingSealPage>>['rows'][number];

/** The operator's switch on one row: who and when (`disabled` null: enabled again, the record cleared). */
export type DisabledMark = { at: Date; by: string; reason: string | null } | null;

/**
 * Disables (or enables) a user. Disabling an already disabled user keeps its first record; enabling clears it.
 * False: no such user. The trigger of migration 0029 announces the change to every instance's caller cache.
 */
export async function setUserDisabled(db: DbOrTx, userId: number, mark: DisabledMark): Promise<boolean> {
  const values = mark
    ? {
        disabledAt: sql`coalesce(${users.disabledAt}, ${mark.at.toISOString()}::timestamptz)`,
        disabledBy: sql`case when ${users.disabledAt} is null then ${mark.by} else ${users.disabledBy} end`,
        disabledReason: sql`case when ${users.disabledAt} is null then ${mark.reason}::text else ${users.disabledReason} end`,
      }
    : { disabledAt: null, disabledBy: null, disabledReason: null };
  const changed = await db.update(users).set(values).where(eq(users.id, userId)).returning({ id: users.id });
  return changed.length > 0;
}

/** The same for an organization. */
export async function setOrganizationDisabled(
  db: DbOrTx,
  organizationId: number,
  mark: DisabledMark,
): Promise<boolean> {
  const values = mark
    ? {
        disabledAt: sql`coalesce(${organizations.disabledAt}, ${mark.at.toISOString()}::timestamptz)`,
        disabledBy: sql`case when ${organizations.disabledAt} is null then ${mark.by} else ${organizations.disabledBy} end`,
        disabledReason: sql`case when ${organizations.disabledAt} is null then ${mark.reason}::text else ${organizations.disabledReason} end`,
      }
    : { disabledAt: null, disabledBy: null, disabledReason: null };
  const changed = await db
    .update(organizations)
    .set(values)
    .where(eq(organizations.id, organizationId))
    .returning({ id: organizations.id });
  return changed.length > 0;
}

/** One user as the users list shows it. */
export async function findUser(db: DbOrTx, userId: number): Promise<UserRow | null> {
  const { rows } = await usersWhere(db, eq(users.id, userId), 1, 0);
  return rows[0] ?? null;
}

/** The organization's envelopes that are not deleted, by id, `limit` after `afterId` (the export walks them in batches). */
export async function findOrganizationWorkflowsAfter(
  db: DbOrTx,
  organizationId: number,
  afterId: number,
  limit: number,
) {
  return db
    .select()
    .from(workflows)
    .where(and(eq(workflows.organizationId, organizationId), isNull(workflows.deletedAt), gt(workflows.id, afterId)))
    .orderBy(asc(workflows.id))
    .limit(limit);
}

export type ExportWorkflowRow = Awaited<ReturnType<typeof findOrganizationWorkflowsAfter>>[number];
