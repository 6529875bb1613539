import { AppError } from '../../errors.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { findSessionStanding } from './auth.repo.ts';

/**
 * The operator's switches (POST /admin/v1/users/{userId}/disable, /organizations/{orgId}/disable; docs/security.md
 * "The operator's switches"): what a disabled account or organization is refused, with which error. Every way in
 * ends in one of three checks: a session is issued or rotated (issueSession: password, TOTP, SSO/OIDC, social ID
 * token, passkey, smart card, client credentials, signing link, refresh), an access token is used (authenticate.ts:
 * the membership row carries the switches; a guest token asks linkStanding, kept per process like memberships), or a
 * web session is read (web-session.service.ts me).
 */
export type Standing = {
  userDisabledAt: Date | null;
  /** A signing link's envelope: its owner. */
  ownerDisabledAt?: Date | null;
  organizationDisabledAt: Date | null;
};

/** ACCOUNT_DISABLED / ORGANIZATION_DISABLED (403) for a user's own session: the account, then the organization. */
export function assertAccountStanding(standing: Standing): void {
  if (standing.userDisabledAt) throw new AppError('ACCOUNT_DISABLED');
  if (standing.organizationDisabledAt) throw new AppError('ORGANIZATION_DISABLED');
}

/** The same for a signing link's session: the recipient's account, then the envelope's sender and organization. */
export function assertLinkStanding(standing: Standing): void {
  if (standing.userDisabledAt) throw new AppError('ACCOUNT_DISABLED');
  if (standing.ownerDisabledAt)
    throw new AppError(
      'ACCOUNT_DISABLED',
      "The sender's account is disabled by the operator of this service, so this envelope's signing links do not work for now",
    );
  if (standing.organizationDisabledAt)
    throw new AppError(
      'ORGANIZATION_DISABLED',
      "The sender's organization is disabled by the operator of this service, so this envelope's signing links do not work for now",
    );
}

/**
 * Before a session is issued or rotated: one statement over primary keys. A subject whose user row is gone is left
 * to the caller's own checks (a refresh refuses it as INVALID_REFRESH_TOKEN).
 */
export async function assertSessionStanding(
  db: DbOrTx,
  subject: { userId: number; type: string; claims: { organizationId?: number; workflowId?: number } },
): Promise<void> {
  const guest = subject.type === 'GUEST';
  const standing = await findSessionStanding(db, {
    userId: subject.userId,
    ...(guest ? { workflowId: subject.claims.workflowId ?? -1 } : { organizationId: subject.claims.organizationId }),
  });
  if (!standing) return;
  if (guest) assertLinkStanding(standing);
  else assertAccountStanding(standing);
}
