import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedShapes, preparedStatement } from '../../platform/db/prepared.ts';
import { memberships, roles } from '../../platform/db/schema/index.ts';
import { likeContains } from '../workflows/workflow-ids.ts';

export type RoleRow = typeof roles.$inferSelect;
export type RoleWithCount = RoleRow & { membersCount: number };
export type RoleFilter = { name?: string; description?: string; status?: string; searchValue?: string };

// Written out in SQL so that "roles"."id" binds to the outer row.
const membersCount = sql<number>`(select count(*)::int from memberships m where m.role_id = "roles"."id")`;

function matching(organizationId: number, filter: RoleFilter): SQL | undefined {
  return and(
    eq(roles.organizationId, organizationId),
    filter.name ? ilike(roles.name, likeContains(filter.name)) : undefined,
    filter.description ? ilike(roles.description, likeContains(filter.description)) : undefined,
    filter.status ? eq(roles.status, filter.status) : undefined,
    filter.searchValue
      ? or(
          ilike(roles.name, likeContains(filter.searchValue)),
          ilike(roles.description, likeContains(filter.searchValue)),
        )
      : undefined,
  );
}

/**
 * One page of the organization's roles, by name (the (organization, name) index gives the order), and the total as
 * a window count in the same statement (the count query runs only for a page past the end).
 */
const rolePage = preparedShapes('roles_page', (db, shape: string) => {
  const has = (part: string) => shape.includes(part);
  const search = sql.placeholder('searchValue');
  return db
    .select({ role: roles, membersCount, total: sql<number>`count(*) over()`.mapWith(Number) })
    .from(roles)
    .where(
      and(
        eq(roles.organizationId, sql.placeholder('organizationId')),
        has('n') ? ilike(roles.name, sql.placeholder('name')) : undefined,
        has('d') ? ilike(roles.description, sql.placeholder('description')) : undefined,
        has('t') ? eq(roles.status, sql.placeholder('status')) : undefined,
        has('s') ? or(ilike(roles.name, search), ilike(roles.description, search)) : undefined,
      ),
    )
    .orderBy(asc(roles.name), asc(roles.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'));
});

export async function findRoles(
  db: DbOrTx,
  organizationId: number,
  filter: RoleFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: RoleWithCount[]; total: number }> {
  // The shape names the filters present (n, d, t, s): at most 16 statements.
  const shape = `${filter.name ? 'n' : ''}${filter.description ? 'd' : ''}${filter.status ? 't' : ''}${filter.searchValue ? 's' : ''}`;
  const contains = (value: string | undefined) => (value ? likeContains(value) : undefined);
  const rows = await rolePage(db, shape).execute({
    organizationId,
    name: contains(filter.name),
    description: contains(filter.description),
    status: filter.status,
    searchValue: contains(filter.searchValue),
    ...page,
  });
  const total = rows.length > 0 ? rows[0].total : page.offset === 0 ? 0 : await countRoles(db, organizationId, filter);
  return { rows: rows.map((r) => ({ ...r.role, membersCount: r.membersCount })), total };
}

export async function countRoles(db: DbOrTx, organizationId: number, filter: RoleFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(roles).where(matching(organizationId, filter));
  return row.n;
}

export async function findRole(
  db: DbOrTx,
  organizationId: number,
  roleId: number,
  options: { lock?: boolean } = {},
): Promise<RoleRow | null> {
  const query = db
    .select()
    .from(roles)
    .where(and(eq(roles.id, roleId), eq(roles.organizationId, organizationId)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function findRoleWithCount(
  db: DbOrTx,
  organizationId: number,
  roleId: number,
): Promise<RoleWithCount | null> {
  const [row] = await db
    .select({ role: roles, membersCount })
    .from(roles)
    .where(and(eq(roles.id, roleId), eq(roles.organizationId, organizationId)));
  return row ? { ...row.role, membersCount: row.membersCount } : null;
}

/** Another role of the organization with this name, ignoring case. */
export async function findRoleByName(db: DbOrTx, organizationId: number, name: string): Promise<RoleRow | null> {
  const [row] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.organizationId, organizationId), eq(sql`lower(${roles.name})`, name.toLowerCase())));
  return row ?? null;
}

const availableRoles = preparedStatement('roles_available', (db) =>
  db
    .select({ roleId: roles.id, roleName: roles.name })
    .from(roles)
    .where(and(eq(roles.organizationId, sql.placeholder('organizationId')), eq(roles.status, 'ACTIVE')))
    .orderBy(asc(roles.name), asc(roles.id)),
);

export async function findAvailableRoles(
  db: DbOrTx,
  organizationId: number,
): Promise<{ roleId: number; roleName: string }[]> {
  return availableRoles(db).execute({ organizationId });
}

export type RoleValues = Pick<
  typeof roles.$inferInsert,
  'name' | 'description' | 'status' | 'signatureSettings' | 'permissions'
>;

export async function insertRole(db: DbOrTx, organizationId: number, values: RoleValues): Promise<RoleRow> {
  const [row] = await db
    .insert(roles)
    .values({ organizationId, ...values })
    .returning();
  return row;
}

export async function updateRole(db: DbOrTx, roleId: number, values: Partial<RoleValues>): Promise<void> {
  await db.update(roles).set(values).where(eq(roles.id, roleId));
}

/** Members (any status) holding each of the roles; roles nobody holds are absent. */
export async function countMembersByRole(db: DbOrTx, roleIds: number[]): Promise<Map<number, number>> {
  const rows = await db
    .select({ roleId: memberships.roleId, n: count() })
    .from(memberships)
    .where(inArray(memberships.roleId, roleIds))
    .groupBy(memberships.roleId);
  return new Map(rows.map((r) => [r.roleId!, r.n]));
}

export async function deleteRoles(db: DbOrTx, roleIds: number[]): Promise<void> {
  await db.delete(roles).where(inArray(roles.id, roleIds));
}
