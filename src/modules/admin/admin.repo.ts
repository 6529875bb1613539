import { and, asc, count, eq, ilike, inArray, or, sql, type Column, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { activities, memberships, organizations, packages, users, workflows } from '../../platform/db/schema/index.ts';

/**
 * The operator's reads across every organization (modules/admin). Reads only: the operator's changes go through
 * the module that owns the rows (billing for packages, signing for seals).
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

export type UserRow = Awaited<ReturnType<typeof findUsersPage>>['rows'][number];

/** Users by id, each with its memberships (any status) and their organizations' names, in two queries. */
export async function findUsersPage(db: DbOrTx, search: string | undefined, limit: number, offset: number) {
  const where = searchFilter(search, users.id, [users.name, users.email]);
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
