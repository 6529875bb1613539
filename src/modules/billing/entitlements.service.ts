import { AppError } from '../../errors.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { countOneSignature, debitOneCredit, findOrganizationPlan, findSignatureQuota, type SignatureQualifier } from './entitlements.repo.ts';

/**
 * Every plan decision of an organization (SPEC.md "Package", "Limits", "Errors"), in one place. Each function
 * takes the caller's transaction, so a refusal rolls back the action it gates and a debit commits with it.
 */

type Plan = NonNullable<Awaited<ReturnType<typeof findOrganizationPlan>>>;

/** SPEC.md: an expired package blocks sending and signing for the whole organization (16003); an inactive service plan is a 500 billing state. */
function assertPlanStanding(plan: Plan | null, now: Date): asserts plan is Plan {
  if (!plan) throw new AppError('SERVICE_PLAN_INACTIVE', 'The workflow\'s organization has no billing plan');
  if (plan.packageExpiresAt.getTime() <= now.getTime()) throw new AppError('PACKAGE_EXPIRED');
  if (!plan.servicePlanActive) throw new AppError('SERVICE_PLAN_INACTIVE');
}

/**
 * Whether the organization may send a workflow: its package stands and allows sharing. Locks the
 * organization's row, so concurrent sends of one organization see each other's credit debit.
 */
export async function assertMaySend(tx: DbOrTx, organizationId: number, now = new Date()): Promise<void> {
  const plan = await findOrganizationPlan(tx, organizationId, { lock: true });
  assertPlanStanding(plan, now);
  if (!plan.allowSharing) throw new AppError('SHARING_NOT_ALLOWED');
}

/** Whether a workflow of the organization may be signed; checked on every signing action, against the workflow's organization (guests have none). */
export async function assertMaySign(db: DbOrTx, organizationId: number, now = new Date()): Promise<void> {
  assertPlanStanding(await findOrganizationPlan(db, organizationId), now);
}

/**
 * One credit per envelope: a sent workflow pays when it is sent, a self-signed one when it completes. The
 * debit is a conditional update, so two racing actions cannot both spend the last credit. Returns the new balance.
 */
export async function debitCredit(tx: DbOrTx, organizationId: number, reason?: string): Promise<number> {
  const credits = await debitOneCredit(tx, organizationId);
  if (credits === null) throw new AppError('INSUFFICIENT_CREDITS', reason);
  return credits;
}

const QUALIFIER_NAMES: Record<SignatureQualifier, string> = { ELECTRONIC: 'Electronic', ADVANCED: 'Advanced', QUALIFIED: 'Qualified' };
const ROLE_QUOTA_KEYS: Record<SignatureQualifier, string> = { ELECTRONIC: 'quotaElectronic', ADVANCED: 'quotaAdvanced', QUALIFIED: 'quotaQualified' };

/**
 * Counts one signature of `qualifier` against the signer's personal quota in the workflow's organization
 * (SPEC.md Limits: per user, per role). The unit is one finished signer per workflow. Only members have a
 * quota: a guest, or a user of another organization, signs without one. The quota is the member's role's
 * (signatureSettings.quotaElectronic…) when the role is ACTIVE and sets one, else the package's. Over it:
 * SIGNATURE_QUOTA_EXCEEDED, whose description SPEC.md fixes, so responseBody names the qualifier.
 */
export async function countSignature(tx: DbOrTx, signer: { organizationId: number; userId: number }, qualifier: SignatureQualifier): Promise<void> {
  const row = await findSignatureQuota(tx, signer.organizationId, signer.userId, qualifier);
  if (!row) return;
  const roleQuota = (row.roleSettings as Record<string, unknown> | null)?.[ROLE_QUOTA_KEYS[qualifier]];
  const quota = Number.isInteger(roleQuota) ? roleQuota as number : row.packageQuota;
  if ((await countOneSignature(tx, row.membershipId, qualifier, quota)) !== null) return;
  throw new AppError('SIGNATURE_QUOTA_EXCEEDED', `${QUALIFIER_NAMES[qualifier]} signature quota exceeded: ${row.used} of ${quota} used`, { qualifier, quota, used: row.used });
}

/** SPEC.md "Email settings": custom mail routing is available only when the plan allows it. */
export async function allowsCustomMail(db: DbOrTx, organizationId: number): Promise<boolean> {
  return (await findOrganizationPlan(db, organizationId))?.allowCustomSmtp ?? false;
}

/** SPEC.md "Profile": the cloud-import providers (DRIVE, BOX) the plan grants; the profile's keys for the others are null. */
export async function cloudProvidersGranted(db: DbOrTx, organizationId: number): Promise<string[]> {
  return (await findOrganizationPlan(db, organizationId))?.cloudProviders ?? [];
}

/** SPEC.md Limits: a Power Survey dispatch stays under the plan's recipient limit. */
export async function surveyRecipientLimit(db: DbOrTx, organizationId: number): Promise<number> {
  return (await findOrganizationPlan(db, organizationId))?.powerSurveyRecipientLimit ?? 0;
}
