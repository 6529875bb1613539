import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import {
  businessApps,
  memberships,
  organizations,
  recipients,
  roles,
  users,
  workflows,
} from '../../platform/db/schema/index.ts';

export type BusinessAppRow = typeof businessApps.$inferSelect;

export async function findBusinessAppByClientId(db: DbOrTx, clientId: string): Promise<BusinessAppRow | null> {
  const [row] = await db.select().from(businessApps).where(eq(businessApps.clientId, clientId));
  return row ?? null;
}

export async function findBusinessAppById(db: DbOrTx, id: number): Promise<BusinessAppRow | null> {
  const [row] = await db.select().from(businessApps).where(eq(businessApps.id, id));
  return row ?? null;
}

/** Whether the user is an active member (owner included) of the organization. */
export async function isActiveMember(db: DbOrTx, organizationId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        eq(memberships.userId, userId),
        eq(memberships.status, 'ACTIVE'),
      ),
    );
  return Boolean(row);
}

/** The workflow and recipient row a guest session acts on, whatever their state (the caller judges it). */
export async function findGuestSessionTarget(db: DbOrTx, workflowId: number, recipientId: number) {
  const [row] = await db
    .select({ workflow: workflows, recipient: recipients })
    .from(recipients)
    .innerJoin(workflows, eq(workflows.id, recipients.workflowId))
    .where(and(eq(recipients.id, recipientId), eq(recipients.workflowId, workflowId)));
  return row ?? null;
}

/**
 * Whether an access token's account still stands: the user exists and is registered, is an ACTIVE member of the
 * token's organization, and, for a business-app token, the app is still enabled in that organization. One
 * statement over primary keys and the (organization, user) membership index, run on every USER/CLIENT request;
 * it also brings the membership's ownership and role permissions, which route authorization needs (null: the
 * account no longer stands). A role that is not ACTIVE grants nothing. The same row carries the operator's switches
 * (users.disabled_at, organizations.disabled_at over the organization's primary key), so a disabled account or
 * organization costs no further statement: the caller refuses it with its own error (authenticate.ts).
 */
const orgParam = sql.placeholder('organizationId');
const activeMembership = (db: DbOrTx) =>
  db
    .select({
      isOwner: memberships.isOwner,
      roleId: memberships.roleId,
      rolePermissions: roles.permissions,
      userDisabledAt: users.disabledAt,
      organizationDisabledAt: organizations.disabledAt,
    })
    .from(users)
    .innerJoin(
      memberships,
      and(eq(memberships.userId, users.id), eq(memberships.organizationId, orgParam), eq(memberships.status, 'ACTIVE')),
    )
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .leftJoin(
      roles,
      and(eq(roles.id, memberships.roleId), eq(roles.organizationId, orgParam), eq(roles.status, 'ACTIVE')),
    );
const registeredUser = and(eq(users.id, sql.placeholder('userId')), eq(users.isGuest, false));
const membershipOfUser = preparedStatement('auth_membership', (db) => activeMembership(db).where(registeredUser));
const membershipOfApp = preparedStatement('auth_membership_app', (db) =>
  activeMembership(db)
    .innerJoin(
      businessApps,
      and(
        eq(businessApps.id, sql.placeholder('appId')),
        eq(businessApps.organizationId, orgParam),
        eq(businessApps.status, true),
      ),
    )
    .where(registeredUser),
);

export async function findActiveMembership(
  db: DbOrTx,
  subject: { userId: number; organizationId: number; appId?: number },
) {
  const [row] =
    subject.appId === undefined
      ? await membershipOfUser(db).execute({ userId: subject.userId, organizationId: subject.organizationId })
      : await membershipOfApp(db).execute({
          userId: subject.userId,
          organizationId: subject.organizationId,
          appId: subject.appId,
        });
  return row ?? null;
}

const owners = alias(users, 'owners');

/**
 * The operator's switches that bear on a session (modules/admin, docs/security.md "The operator's switches"), in one
 * statement over primary keys: the session's user; for a USER or CLIENT session its organization; for a signing
 * link's (GUEST) session the envelope's owner and organization. Null: no such user.
 */
export async function findSessionStanding(
  db: DbOrTx,
  subject: { userId: number; organizationId?: number; workflowId?: number },
): Promise<{ userDisabledAt: Date | null; ownerDisabledAt: Date | null; organizationDisabledAt: Date | null } | null> {
  const [row] = await db
    .select({
      userDisabledAt: users.disabledAt,
      ownerDisabledAt: owners.disabledAt,
      organizationDisabledAt: organizations.disabledAt,
    })
    .from(users)
    .leftJoin(workflows, eq(workflows.id, subject.workflowId ?? -1))
    .leftJoin(owners, eq(owners.id, workflows.ownerUserId))
    .leftJoin(
      organizations,
      subject.organizationId === undefined
        ? eq(organizations.id, workflows.organizationId)
        : eq(organizations.id, subject.organizationId),
    )
    .where(eq(users.id, subject.userId));
  return row ?? null;
}
