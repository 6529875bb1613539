import { AppError } from '../../errors.ts';
import { pageOffset, toNumberedPage } from '../../http/schemas.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import type { NotifiedCache } from '../../platform/db/notified-cache.ts';
import {
  INVITATIONS_OF_ADDRESS,
  INVITATIONS_PER_ORGANIZATION,
  lockedForSeconds,
  recordAttempts,
  type AttemptRule,
} from '../../platform/limits/attempts.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import type { BillingService } from '../billing/billing.service.ts';
import { createAccount, setActingOrganization } from '../users/accounts.ts';
import { createPersonalOrganization } from './personal-organization.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import {
  assertSenderVerified,
  findOrCreateGuestUser,
  findUserByEmail,
  normalizeEmail,
} from '../users/users.directory.ts';
import { assignableRole } from '../roles/roles.service.ts';
import {
  hashInvitationCode,
  invitationExpiry,
  invitationLink,
  invitationMail,
  isWellFormedInvitationCode,
  newInvitationCode,
  ownershipMail,
} from './invitations.ts';
import {
  deleteMemberships,
  findActiveMemberByEmail,
  findFallbackMembership,
  findInvitationByCode,
  findInvitationsOfUser,
  findMember,
  findMembership,
  findMembershipsOfUsers,
  findOrganization,
  findUserAccount,
  findMembers,
  insertMembership,
  setOrganizationOwner,
  updateMembership,
  type MemberRow,
  type MembershipRow,
} from './organizations.repo.ts';
import {
  toMemberResponse,
  type InviteBody,
  type InviteResponseBody,
  type InviteSignupBody,
  type MembersQuery,
  type MemberUpdateBody,
  type OwnershipBody,
  type RenewBody,
} from './organizations.schemas.ts';

/** `lists` keeps member pages per organization until a membership, role or member's account changes (migration 0024). */
type Deps = { db: Db; outbox: Outbox; billing: BillingService; publicUrl: string; lists: NotifiedCache };
export type OrganizationService = ReturnType<typeof createOrganizationService>;

const USED_COLUMNS = { ELECTRONIC: 'usedElectronic', ADVANCED: 'usedAdvanced', QUALIFIED: 'usedQualified' } as const;

/**
 * Members of the caller's organization (SPEC.md "Organization: users"), their invitations and the ownership.
 * Everything acts on the organization the caller's token acts in; a user who is not a member of it does not
 * exist for these calls (404).
 */
export function createOrganizationService({ db, outbox, billing, publicUrl, lists }: Deps) {
  return {
    listMembers,
    getMember,
    invite,
    updateMember,
    removeMembers,
    changeRole,
    renewQuota,
    myInvitations,
    answerInvitations,
    invitationDetails,
    signUpWithInvitation,
    transferOwnership,
  };

  async function listMembers(caller: UserCaller, query: MembersQuery) {
    const filter = { searchValue: query.searchValue, status: query.status };
    const key = JSON.stringify([filter.searchValue, filter.status, query.page, query.size]);
    // Kept as the answer's items: mapping 20 rows again on every request cost as much as the rest of the request.
    const { content, total } = await lists.read(
      caller.organizationId,
      key,
      async () => {
        const { rows, total } = await findMembers(db, caller.organizationId, filter, pageOffset(query));
        return { content: rows.map(toMemberResponse), total };
      },
      (page) => page.content.length,
    );
    return toNumberedPage(content, total, query);
  }

  async function getMember(caller: UserCaller, userId: number): Promise<MemberRow> {
    const row = await findMember(db, caller.organizationId, userId);
    if (!row) throw new AppError('NOT_FOUND', `User ${userId} is not a member of this organization`);
    return row;
  }

  /**
   * Owner only. Someone without an account gets a guest user row (as a recipient would) and a sign-up link; a
   * registered user accepts in the app. An ACTIVE member, or a pending invitation that has not expired, is 409;
   * a DECLINED or expired invitation is renewed. The membership row and its mail commit together. The mail leaves
   * through the platform's own mail, so the inviter's address must be verified (403 EMAIL_NOT_VERIFIED) and the
   * invitation limits hold (429 INVITATION_LIMIT_REACHED): INVITATIONS_PER_ORGANIZATION, INVITATIONS_OF_ADDRESS.
   */
  async function invite(caller: UserCaller, body: InviteBody): Promise<MemberRow> {
    const email = normalizeEmail(body.emailAddress);
    const now = new Date();
    await assertSenderVerified(db, caller.userId);
    try {
      await db.transaction(async (tx) => {
        // Invitations of one organization take turns, so one email cannot be invited twice at once, and the counts are exact.
        const organization = await findOrganization(tx, caller.organizationId, { lock: true });
        if (!organization) throw new AppError('NOT_FOUND', 'Organization not found');
        const counted = await assertUnderInvitationLimits(tx, organization.id, email, now);
        const roleId = await assignableRole(tx, caller.organizationId, body.role);
        const user = (await findUserByEmail(tx, email)) ?? (await findOrCreateGuestUser(tx, email, body.name));
        const existing = await findMembership(tx, caller.organizationId, user.id, { lock: true });
        if (
          existing &&
          (existing.status === 'ACTIVE' || (existing.status === 'INVITED' && !isExpired(existing, now)))
        ) {
          throw new AppError(
            'MEMBER_ALREADY_EXISTS',
            existing.status === 'ACTIVE' ? `${email} is already a member` : `${email} has already been invited`,
          );
        }
        const code = user.isGuest ? newInvitationCode(now) : null;
        const values = {
          roleId,
          name: body.name,
          status: 'INVITED',
          invitedByUserId: caller.userId,
          invitedAt: now,
          joinedAt: null,
          inviteCodeHash: code?.codeHash ?? null,
          inviteExpiresAt: invitationExpiry(now),
          usedElectronic: 0,
          usedAdvanced: 0,
          usedQualified: 0,
        };
        if (existing) await updateMembership(tx, existing.id, values);
        else
          await insertMembership(tx, {
            organizationId: caller.organizationId,
            userId: user.id,
            isOwner: false,
            ...values,
          });
        const inviter = await findUserAccount(tx, caller.userId);
        await outbox.enqueue(
          tx,
          invitationMail({
            organizationId: organization.id,
            organizationName: organization.name,
            inviterName: inviter?.name ?? 'The owner',
            to: email,
            name: body.name,
            expiresAt: invitationExpiry(now),
            publicUrl,
            signupLink: code ? invitationLink(publicUrl, code.code) : null,
            inviterEmail: inviter?.email ?? null,
          }),
        );
        await recordAttempts(tx, counted);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('MEMBER_ALREADY_EXISTS', `${email} has already been invited`);
      throw error;
    }
    outbox.notify();
    const user = await findUserByEmail(db, email);
    return getMember(caller, user!.id);
  }

  /** Owner only: the name the organization knows the member by, and the role (the owner's own role cannot be set). */
  async function updateMember(caller: UserCaller, userId: number, body: MemberUpdateBody): Promise<MemberRow> {
    await db.transaction(async (tx) => {
      const membership = await memberFor(tx, caller, userId);
      if (body.role !== undefined && membership.isOwner)
        throw new AppError(
          'OPERATION_IS_NOT_ALLOWED',
          'The owner holds every right; a role does not apply to the owner',
        );
      const roleId = body.role === undefined ? undefined : await assignableRole(tx, caller.organizationId, body.role);
      await updateMembership(tx, membership.id, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(roleId !== undefined ? { roleId } : {}),
      });
    });
    return getMember(caller, userId);
  }

  /** The owner gives a member a role of the organization, or none (null); the route is the owner's alone, and the owner's role does not apply. */
  async function changeRole(caller: UserCaller, userId: number, roleId: number | null): Promise<MemberRow> {
    await db.transaction(async (tx) => {
      const membership = await memberFor(tx, caller, userId);
      if (membership.isOwner)
        throw new AppError(
          'OPERATION_IS_NOT_ALLOWED',
          'The owner holds every right; a role does not apply to the owner',
        );
      const next = await assignableRole(tx, caller.organizationId, roleId);
      await updateMembership(tx, membership.id, { roleId: next });
    });
    return getMember(caller, userId);
  }

  /** Resets the member's signature counts (all, or the qualifiers named). The route is the owner's alone. */
  async function renewQuota(caller: UserCaller, body: RenewBody): Promise<MemberRow> {
    const qualifiers = (body.qualifiers ?? ['ELECTRONIC', 'ADVANCED', 'QUALIFIED']) as (keyof typeof USED_COLUMNS)[];
    await db.transaction(async (tx) => {
      const membership = await memberFor(tx, caller, body.userId);
      await updateMembership(tx, membership.id, Object.fromEntries(qualifiers.map((q) => [USED_COLUMNS[q], 0])));
    });
    return getMember(caller, body.userId);
  }

  /**
   * Owner only; all or nothing. `isJoinedUser` true removes ACTIVE members, false withdraws invitations (INVITED
   * or DECLINED); an id of the other kind, or of nobody in the organization, is 404; the owner is 400
   * OWNER_NOT_REMOVABLE. A removed member's tokens stop working at once (every request checks the membership);
   * if they were acting in this organization they go on in another one of theirs (their own first), or in a new
   * organization of their own on the default package when they have none, so the account stays usable.
   */
  async function removeMembers(caller: UserCaller, ids: number[], isJoinedUser: boolean): Promise<void> {
    const userIds = [...new Set(ids)];
    // Read before the transaction: on the embedded database a query outside it would wait for it to end.
    const plan = await billing.defaultPackage();
    await db.transaction(async (tx) => {
      const rows = await findMembershipsOfUsers(tx, caller.organizationId, userIds);
      const owner = rows.find((r) => r.isOwner);
      if (owner)
        throw new AppError(
          'OWNER_NOT_REMOVABLE',
          `User ${owner.userId} is the organization's owner; transfer the ownership first`,
        );
      const byUser = new Map(rows.map((r) => [r.userId, r]));
      for (const id of userIds) {
        const row = byUser.get(id);
        if (!row || (row.status === 'ACTIVE') !== isJoinedUser) {
          throw new AppError(
            'NOT_FOUND',
            isJoinedUser
              ? `User ${id} is not a member of this organization`
              : `User ${id} has no pending invitation to this organization`,
          );
        }
      }
      await deleteMemberships(
        tx,
        rows.map((r) => r.id),
      );
      for (const row of rows) {
        if (row.status === 'ACTIVE') await moveOutOf(tx, row.userId, caller.organizationId, plan);
      }
    });
  }

  async function moveOutOf(
    tx: Tx,
    userId: number,
    organizationId: number,
    plan: Awaited<ReturnType<BillingService['defaultPackage']>>,
  ): Promise<void> {
    const account = await findUserAccount(tx, userId);
    if (!account || account.organizationId !== organizationId) return;
    const fallback = await findFallbackMembership(tx, userId, organizationId);
    if (fallback) return setActingOrganization(tx, userId, fallback.organizationId);
    await setActingOrganization(tx, userId, await createPersonalOrganization(tx, { userId, name: account.name }, plan));
  }

  /** The caller's pending invitations (any organization), for the invitee's dashboard. */
  async function myInvitations(caller: UserCaller) {
    return (await findInvitationsOfUser(db, caller.userId)).map(invitationOf);
  }

  /**
   * PUT /organization/v1/invite, by the invitee. Every name must match a pending invitation of the caller (404
   * otherwise; all or nothing), and only one, unless organizationIds picks among those of that name
   * (chooseInvitations); an expired one is 400 LINK_EXPIRED. Accepting needs a confirmed address (the
   * invitation was meant for the mailbox) and makes the organization the one the account acts in from its next
   * sign-in (with several, the first accepted).
   */
  async function answerInvitations(caller: UserCaller, body: InviteResponseBody) {
    const accept = body.inviteStatus === 'ACCEPTED';
    const now = new Date();
    const result = await db.transaction(async (tx) => {
      const account = await findUserAccount(tx, caller.userId);
      if (accept && !account?.emailVerifiedAt)
        throw new AppError(
          'EMAIL_NOT_VERIFIED',
          'Open the confirmation link mailed at sign-up (or ask for a new one) before accepting invitations',
        );
      const chosen = chooseInvitations(await findInvitationsOfUser(tx, caller.userId), body);
      const expired = chosen.find((p) => isExpired(p.membership, now));
      if (expired)
        throw new AppError(
          'LINK_EXPIRED',
          `The invitation from ${expired.organizationName} has expired; ask its owner to invite you again`,
        );
      const answered = [];
      for (const p of chosen) {
        const row = await updateMembership(
          tx,
          p.membership.id,
          accept
            ? { status: 'ACTIVE', joinedAt: now, inviteCodeHash: null }
            : { status: 'DECLINED', inviteCodeHash: null },
        );
        answered.push({ ...invitationOf(p), status: row.status, expiresAt: null });
      }
      if (accept && chosen.length > 0)
        await setActingOrganization(tx, caller.userId, chosen[0].membership.organizationId);
      return answered;
    });
    return result;
  }

  /** What the mailed sign-up link shows before the form: LINK_EXPIRED for a used, withdrawn, unknown or expired code. */
  async function invitationDetails(code: string) {
    const invitation = await pendingInvitation(db, code);
    return {
      orgName: invitation.organizationName,
      name: invitation.membership.name ?? '',
      emailAddress: invitation.email,
      expiresAt: invitation.membership.inviteExpiresAt!.toISOString(),
    };
  }

  /**
   * The mailed link's sign-up: creates the account for the invited address (verified: the code came by mail to
   * it), with an organization of its own as at sign-up, and makes it an ACTIVE member of the inviting
   * organization, which it acts in. Works whether or not SIGNUP_ENABLED is set: the owner's invitation is the
   * permission. An address registered meanwhile answers 409 (sign in and accept in the app).
   */
  async function signUpWithInvitation(
    code: string,
    body: InviteSignupBody,
  ): Promise<{ userId: number; organizationId: number }> {
    const checked = await pendingInvitation(db, code);
    if (!checked.isGuest)
      throw new AppError(
        'EMAIL_ALREADY_REGISTERED',
        'This address has an account now: sign in and accept the invitation in the app',
      );
    const passwordHash = await hashPassword(body.password);
    const plan = await billing.defaultPackage();
    try {
      return await db.transaction(async (tx) => {
        const invitation = await pendingInvitation(tx, code, { lock: true });
        const now = new Date();
        const { user } = await createAccount(
          tx,
          {
            name: body.name ?? invitation.membership.name ?? 'Member',
            email: invitation.email,
            passwordHash,
            emailVerifiedAt: now,
          },
          plan,
        );
        await updateMembership(tx, invitation.membership.id, { status: 'ACTIVE', joinedAt: now, inviteCodeHash: null });
        await setActingOrganization(tx, user.id, invitation.membership.organizationId);
        return { userId: user.id, organizationId: invitation.membership.organizationId };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('EMAIL_ALREADY_REGISTERED');
      throw error;
    }
  }

  /**
   * Owner only: `orgName` must be the caller's organization, `userEmail` an ACTIVE registered member of it. The
   * new owner's role is cleared (the owner holds every right); the former owner stays a member without a role.
   */
  async function transferOwnership(caller: UserCaller, body: OwnershipBody) {
    const email = normalizeEmail(body.userEmail);
    const result = await db.transaction(async (tx) => {
      const organization = await findOrganization(tx, caller.organizationId, { lock: true });
      if (!organization || organization.name !== body.orgName)
        throw new AppError('NOT_FOUND', `You do not own an organization named "${body.orgName}"`);
      const target = await findActiveMemberByEmail(tx, organization.id, email);
      if (!target) throw new AppError('NOT_FOUND', `${email} is not an active member of ${organization.name}`);
      if (target.membership.userId === caller.userId)
        throw new AppError('OPERATION_IS_NOT_ALLOWED', 'You already own this organization');
      const former = await findMembership(tx, organization.id, caller.userId, { lock: true });
      await updateMembership(tx, former!.id, { isOwner: false, roleId: null });
      await updateMembership(tx, target.membership.id, { isOwner: true, roleId: null });
      await setOrganizationOwner(tx, organization.id, target.membership.userId);
      const formerAccount = await findUserAccount(tx, caller.userId);
      await outbox.enqueue(
        tx,
        ownershipMail({
          organizationId: organization.id,
          organizationName: organization.name,
          formerOwnerName: formerAccount?.name ?? 'The owner',
          to: target.email,
          name: target.name,
        }),
      );
      return {
        organizationId: organization.id,
        orgName: organization.name,
        ownerUserId: target.membership.userId,
        ownerEmail: target.email,
      };
    });
    outbox.notify();
    return result;
  }

  async function memberFor(tx: Tx, caller: UserCaller, userId: number): Promise<MembershipRow> {
    const membership = await findMembership(tx, caller.organizationId, userId, { lock: true });
    if (!membership) throw new AppError('NOT_FOUND', `User ${userId} is not a member of this organization`);
    return membership;
  }

  async function pendingInvitation(dbOrTx: Db | Tx, code: string, options: { lock?: boolean } = {}) {
    const row = isWellFormedInvitationCode(code)
      ? await findInvitationByCode(dbOrTx, hashInvitationCode(code), options)
      : null;
    if (row?.membership.status !== 'INVITED' || isExpired(row.membership, new Date())) {
      throw new AppError(
        'LINK_EXPIRED',
        'The invitation link is not valid any more: it was used, withdrawn or replaced, or it expired',
      );
    }
    return row;
  }
}

type PendingInvitation = Awaited<ReturnType<typeof findInvitationsOfUser>>[number];

function invitationOf(r: PendingInvitation) {
  return {
    organizationId: r.membership.organizationId,
    orgName: r.organizationName,
    status: r.membership.status,
    roleName: r.roleName,
    invitedBy: r.invitedByName,
    invitedByEmail: r.invitedByEmail,
    expiresAt: r.membership.inviteExpiresAt?.toISOString() ?? null,
  };
}

/**
 * The pending invitations an answer names, oldest first. Organization names are `<name>'s organization` and anyone
 * may sign up under any name, so a name alone must not answer two invitations (one of them a look-alike's, which would
 * then be the organization the account acts in): a name that several pending invitations bear needs organizationIds
 * to pick among them, else 400 INVITATION_NAME_AMBIGUOUS listing them with their inviters. A name without a pending
 * invitation, or an id that is not a pending invitation bearing one of the names, is 404.
 */
function chooseInvitations(pending: PendingInvitation[], body: InviteResponseBody): PendingInvitation[] {
  const names = [...new Set(body.orgNames)];
  const ids = new Set(body.organizationIds ?? []);
  const missing = names.filter((name) => !pending.some((p) => p.organizationName === name));
  if (missing.length > 0)
    throw new AppError('NOT_FOUND', `No pending invitation from: ${missing.join(', ')}`, { orgNames: missing });
  const strays = [...ids].filter(
    (id) => !pending.some((p) => p.membership.organizationId === id && names.includes(p.organizationName)),
  );
  if (strays.length > 0) {
    throw new AppError(
      'NOT_FOUND',
      `No pending invitation from organization ${strays.join(', ')} under the names given`,
      { organizationIds: strays },
    );
  }
  const chosen = new Set<PendingInvitation>();
  for (const name of names) {
    const candidates = pending.filter((p) => p.organizationName === name);
    const picked = candidates.filter((p) => ids.has(p.membership.organizationId));
    if (picked.length === 0 && candidates.length > 1) {
      throw new AppError(
        'INVITATION_NAME_AMBIGUOUS',
        `${candidates.length} pending invitations come from organizations named "${name}": name the one meant in organizationIds (${candidates.map((p) => p.membership.organizationId).join(', ')})`,
        { orgName: name, candidates: candidates.map(invitationOf) },
      );
    }
    for (const p of picked.length > 0 ? picked : candidates) chosen.add(p);
  }
  return pending.filter((p) => chosen.has(p));
}

/**
 * The invitation limits of one organization and address, checked under the organization's row lock so concurrent
 * invitations cannot overrun them; answers the counts to record with the invitation.
 */
async function assertUnderInvitationLimits(
  tx: Tx,
  organizationId: number,
  email: string,
  now: Date,
): Promise<[AttemptRule, string][]> {
  const checks: [AttemptRule, string][] = [
    [INVITATIONS_PER_ORGANIZATION, String(organizationId)],
    [INVITATIONS_OF_ADDRESS, `${organizationId}:${email}`],
  ];
  for (const [rule, subject] of checks) {
    const seconds = await lockedForSeconds(tx, rule, subject, now);
    if (seconds === null) continue;
    const what =
      rule === INVITATIONS_PER_ORGANIZATION
        ? `This organization has sent ${rule.max} invitations within an hour`
        : `${email} has been invited ${rule.max} times within a day`;
    throw new AppError(
      'INVITATION_LIMIT_REACHED',
      `${what}, the most allowed; try again in ${seconds} seconds`,
      { limit: rule.max, windowSeconds: rule.windowSeconds, retryAfterSeconds: seconds },
      { retryAfterSeconds: seconds },
    );
  }
  return checks;
}

function isExpired(membership: MembershipRow, now: Date): boolean {
  return membership.inviteExpiresAt !== null && membership.inviteExpiresAt.getTime() <= now.getTime();
}
