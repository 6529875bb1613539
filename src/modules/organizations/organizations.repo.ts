import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedShapes } from '../../platform/db/prepared.ts';
import { memberships, organizations, roles, users } from '../../platform/db/schema/index.ts';
import { likeContains } from '../workflows/workflow-ids.ts';

export type MembershipRow = typeof memberships.$inferSelect;
export type OrganizationRow = typeof organizations.$inferSelect;

/** A member as the lists show it: the membership, the account's email and name, the role's name. */
const memberColumns = {
  membership: memberships,
  accountName: users.name,
  email: users.email,
  isGuest: users.isGuest,
  roleName: roles.name,
};
export type MemberRow = {
  membership: MembershipRow;
  accountName: string;
  email: string;
  isGuest: boolean;
  roleName: string | null;
};

function membersOf(db: DbOrTx) {
  return db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(roles, eq(roles.id, memberships.roleId));
}

function matching(organizationId: number, filter: { searchValue?: string; status?: string }): SQL | undefined {
  const search = filter.searchValue ? likeContains(filter.searchValue) : undefined;
  return and(
    eq(memberships.organizationId, organizationId),
    filter.status ? eq(memberships.status, filter.status) : undefined,
    search
      ? or(ilike(users.email, search), ilike(sql`coalesce(${memberships.name}, ${users.name})`, search))
      : undefined,
  );
}

/**
 * One page of the organization's members (the owner first, then in the order they were added) and the total: one
 * statement, the total as a window count (the count query runs only for a page past the end).
 */
// The page reads only memberships (the organization's index, then a sort of its rows); the account and role columns
// come as lookups by primary key for the rows on the page. Joined instead, the planner hashed the whole users table
// for every page (1 ms at 5,000 users, growing with every account of the service). A search needs the account of
// every membership to filter on: there one lateral lookup per row brings the three account columns for both the
// filter and the answer (an `exists` filter and then three lookups per row on the page cost twice the database time:
// bench/org-lists.ts, search at 32 connections, p99 44 -> 25 ms).
const roleName = sql<string | null>`(select r.name from roles r where r.id = ${memberships.roleId})`;
const total = sql<number>`count(*) over()`.mapWith(Number);
const account = (column: string) => sql.raw(`(select u.${column} from users u where u.id = "memberships"."user_id")`);
const memberPage = preparedShapes('members_page', (db, shape: `${boolean}:${boolean}`) => {
  const [status, search] = shape.split(':').map((flag) => flag === 'true');
  const organization = eq(memberships.organizationId, sql.placeholder('organizationId'));
  const withStatus = status ? eq(memberships.status, sql.placeholder('status')) : undefined;
  const order = [desc(memberships.isOwner), asc(memberships.id)] as const;
  if (!search) {
    return db
      .select({
        membership: memberships,
        accountName: sql<string>`${account('name')}`,
        email: sql<string>`${account('email')}`,
        isGuest: sql<boolean>`${account('is_guest')}`,
        roleName,
        total,
      })
      .from(memberships)
      .where(and(organization, withStatus))
      .orderBy(...order)
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'));
  }
  const pattern = sql.placeholder('search');
  const found = db
    .select({ name: users.name, email: users.email, isGuest: users.isGuest })
    .from(users)
    .where(eq(users.id, memberships.userId))
    .as('account');
  return db
    .select({
      membership: memberships,
      accountName: found.name,
      email: found.email,
      isGuest: found.isGuest,
      roleName,
      total,
    })
    .from(memberships)
    .innerJoinLateral(found, sql`true`)
    .where(
      and(
        organization,
        withStatus,
        sql`(${found.email} ilike ${pattern} or coalesce(${memberships.name}, ${found.name}) ilike ${pattern})`,
      ),
    )
    .orderBy(...order)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'));
});

export async function findMembers(
  db: DbOrTx,
  organizationId: number,
  filter: { searchValue?: string; status?: string },
  page: { limit: number; offset: number },
): Promise<{ rows: MemberRow[]; total: number }> {
  const rows = await memberPage(db, `${Boolean(filter.status)}:${Boolean(filter.searchValue)}`).execute({
    organizationId,
    status: filter.status,
    search: filter.searchValue ? likeContains(filter.searchValue) : undefined,
    ...page,
  });
  const total =
    rows.length > 0 ? rows[0].total : page.offset === 0 ? 0 : await countMembers(db, organizationId, filter);
  return { rows, total };
}

export async function countMembers(
  db: DbOrTx,
  organizationId: number,
  filter: { searchValue?: string; status?: string },
): Promise<number> {
  const query = db.select({ n: count() }).from(memberships);
  const [row] = filter.searchValue
    ? await query.innerJoin(users, eq(users.id, memberships.userId)).where(matching(organizationId, filter))
    : await query.where(matching(organizationId, filter));
  return row.n;
}

export async function findMember(db: DbOrTx, organizationId: number, userId: number): Promise<MemberRow | null> {
  const [row] = await membersOf(db).where(
    and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)),
  );
  return row ?? null;
}

export async function findMembership(
  db: DbOrTx,
  organizationId: number,
  userId: number,
  options: { lock?: boolean } = {},
): Promise<MembershipRow | null> {
  const query = db
    .select()
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function findMembershipsOfUsers(
  db: DbOrTx,
  organizationId: number,
  userIds: number[],
): Promise<MembershipRow[]> {
  return db
    .select()
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), inArray(memberships.userId, userIds)))
    .orderBy(asc(memberships.id))
    .for('update');
}

export async function findOrganization(
  db: DbOrTx,
  organizationId: number,
  options: { lock?: boolean } = {},
): Promise<OrganizationRow | null> {
  const query = db.select().from(organizations).where(eq(organizations.id, organizationId));
  const [row] = options.lock ? await query.for('no key update') : await query;
  return row ?? null;
}

export async function insertMembership(db: DbOrTx, values: typeof memberships.$inferInsert): Promise<MembershipRow> {
  const [row] = await db.insert(memberships).values(values).returning();
  return row;
}

export async function updateMembership(
  db: DbOrTx,
  membershipId: number,
  values: Partial<typeof memberships.$inferInsert>,
): Promise<MembershipRow> {
  const [row] = await db.update(memberships).set(values).where(eq(memberships.id, membershipId)).returning();
  return row;
}

export async function deleteMemberships(db: DbOrTx, membershipIds: number[]): Promise<void> {
  if (membershipIds.length > 0) await db.delete(memberships).where(inArray(memberships.id, membershipIds));
}

/** The user's pending invitations with their organization, for the invitee. */
export async function findInvitationsOfUser(db: DbOrTx, userId: number) {
  return db
    .select({
      membership: memberships,
      organizationName: organizations.name,
      roleName: roles.name,
      invitedByName: sql<string | null>`(select u.name from users u where u.id = ${memberships.invitedByUserId})`,
      invitedByEmail: sql<string | null>`(select u.email from users u where u.id = ${memberships.invitedByUserId})`,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .leftJoin(roles, eq(roles.id, memberships.roleId))
    .where(and(eq(memberships.userId, userId), eq(memberships.status, 'INVITED')))
    .orderBy(asc(memberships.id));
}

/** The invitation a mailed sign-up code belongs to, with its organization's name and the invitee's account. */
export async function findInvitationByCode(db: DbOrTx, codeHash: string, options: { lock?: boolean } = {}) {
  const query = db
    .select({
      membership: memberships,
      organizationName: organizations.name,
      email: users.email,
      isGuest: users.isGuest,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.inviteCodeHash, codeHash));
  const [row] = options.lock ? await query.for('update', { of: memberships }) : await query;
  return row ?? null;
}

/** Another ACTIVE membership of the user, one it owns first: where a removed member goes on acting. */
export async function findFallbackMembership(
  db: DbOrTx,
  userId: number,
  excludingOrganizationId: number,
): Promise<MembershipRow | null> {
  const [row] = await db
    .select()
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.status, 'ACTIVE'),
        sql`${memberships.organizationId} <> ${excludingOrganizationId}`,
      ),
    )
    .orderBy(desc(memberships.isOwner), asc(memberships.id))
    .limit(1);
  return row ?? null;
}

export async function insertOrganization(
  db: DbOrTx,
  values: typeof organizations.$inferInsert,
): Promise<OrganizationRow> {
  const [row] = await db.insert(organizations).values(values).returning();
  return row;
}

export async function setOrganizationOwner(db: DbOrTx, organizationId: number, ownerUserId: number): Promise<void> {
  await db.update(organizations).set({ ownerUserId }).where(eq(organizations.id, organizationId));
}

/** An ACTIVE registered member of the organization by email. */
export async function findActiveMemberByEmail(db: DbOrTx, organizationId: number, email: string) {
  const [row] = await db
    .select({ membership: memberships, email: users.email, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        eq(users.email, email),
        eq(memberships.status, 'ACTIVE'),
        eq(users.isGuest, false),
      ),
    );
  return row ?? null;
}

export async function findUserAccount(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      isGuest: users.isGuest,
      organizationId: users.organizationId,
      emailVerifiedAt: users.emailVerifiedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}
