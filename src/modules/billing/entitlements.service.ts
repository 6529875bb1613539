import { AppError } from '../../errors.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import {
  countOneSignature,
  debitCreditsAtOnce,
  debitOneCredit,
  findMemberSignatureSettings,
  findOrganizationPlan,
  findPackageQuotas,
  findSignatureQuota,
  type SignatureQualifier,
} from './entitlements.repo.ts';

export type { SignatureQualifier } from './entitlements.repo.ts';

/**
 * Every plan decision of an organization (SPEC.md "Package", "Limits", "Errors"), in one place. Each function
 * takes the caller's transaction, so a refusal rolls back the action it gates and a debit commits with it.
 */

type Plan = NonNullable<Awaited<ReturnType<typeof findOrganizationPlan>>>;

/** SPEC.md: an expired package blocks sending and signing for the whole organization (16003); an inactive service plan is a 500 billing state. */
function assertPlanStanding(plan: Plan | null, now: Date): asserts plan is Plan {
  if (!plan) throw new AppError('SERVICE_PLAN_INACTIVE', "The workflow's organization has no billing plan");
  // The operator's switch (docs/security.md): nobody sends or signs in a disabled organization's envelopes, whatever
  // token they come with (a member signed in elsewhere, a registered recipient in their own account).
  if (plan.disabledAt) throw new AppError('ORGANIZATION_DISABLED');
  if (plan.packageExpiresAt.getTime() <= now.getTime()) throw new AppError('PACKAGE_EXPIRED');
  if (!plan.servicePlanActive) throw new AppError('SERVICE_PLAN_INACTIVE');
}

/**
 * Whether the organization may send a workflow: its package stands and allows sharing, and the sender's role (when
 * `senderUserId` is a member with a role) has allowDocSend. Locks the organization's row, so concurrent sends of
 * one organization see each other's credit debit.
 */
export async function assertMaySend(
  tx: DbOrTx,
  organizationId: number,
  now = new Date(),
  senderUserId?: number,
): Promise<void> {
  const plan = await findOrganizationPlan(tx, organizationId, { lock: true });
  assertPlanStanding(plan, now);
  if (!plan.allowSharing) throw new AppError('SHARING_NOT_ALLOWED');
  if (senderUserId !== undefined && !(await roleAllows(tx, organizationId, senderUserId, 'allowDocSend')))
    throw new AppError('ROLE_SEND_NOT_ALLOWED');
}

/** Whether the member may use the organization's templates (apply, dispatch): the role's allowDocUseTemplates. */
export async function assertMayUseTemplates(db: DbOrTx, organizationId: number, userId: number): Promise<void> {
  if (!(await roleAllows(db, organizationId, userId, 'allowDocUseTemplates')))
    throw new AppError('ROLE_TEMPLATES_NOT_ALLOWED');
}

type RoleFlag =
  | 'allowDocSend'
  | 'allowDocUseTemplates'
  | 'allowSignElectronic'
  | 'allowSignAdvanced'
  | 'allowSignQualified';

/**
 * A role's signatureSettings flag for the user in the organization. Only a role can restrict: the owner, a member
 * without a role and a non-member (a guest, a user of another organization) are allowed; a flag the stored
 * settings lack counts as allowed (roles written before the setting existed).
 */
async function roleAllows(db: DbOrTx, organizationId: number, userId: number, flag: RoleFlag): Promise<boolean> {
  const settings = await findMemberSignatureSettings(db, organizationId, userId);
  return roleSettingAllows(settings, flag);
}

function roleSettingAllows(settings: unknown, flag: RoleFlag): boolean {
  return (settings as Record<string, unknown> | null | undefined)?.[flag] !== false;
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

const QUALIFIER_NAMES: Record<SignatureQualifier, string> = {
  ELECTRONIC: 'Electronic',
  ADVANCED: 'Advanced',
  QUALIFIED: 'Qualified',
};
const ROLE_QUOTA_KEYS: Record<SignatureQualifier, string> = {
  ELECTRONIC: 'quotaElectronic',
  ADVANCED: 'quotaAdvanced',
  QUALIFIED: 'quotaQualified',
};
const ROLE_SIGN_FLAGS: Record<SignatureQualifier, RoleFlag> = {
  ELECTRONIC: 'allowSignElectronic',
  ADVANCED: 'allowSignAdvanced',
  QUALIFIED: 'allowSignQualified',
};

function quotaOf(
  row: NonNullable<Awaited<ReturnType<typeof findSignatureQuota>>>,
  qualifier: SignatureQualifier,
): number {
  const roleQuota = (row.roleSettings as Record<string, unknown> | null)?.[ROLE_QUOTA_KEYS[qualifier]];
  return Number.isInteger(roleQuota) ? (roleQuota as number) : row.packageQuota;
}

/**
 * Counts one signature of `qualifier` against the signer's personal quota in the workflow's organization
 * (SPEC.md Limits: per user, per role). The unit is one finished signer per workflow. Only members have a
 * quota: a guest, or a user of another organization, signs without one. First the member's role must allow the
 * qualifier (signatureSettings.allowSignElectronic…; else 403 ROLE_SIGNATURE_NOT_ALLOWED). The quota is the
 * role's (quotaElectronic…) when the member has a role that sets one, else the package's. Over it:
 * SIGNATURE_QUOTA_EXCEEDED, whose description SPEC.md fixes, so responseBody names the qualifier.
 */
export async function countSignature(
  tx: DbOrTx,
  signer: { organizationId: number; userId: number },
  qualifier: SignatureQualifier,
): Promise<void> {
  const row = await findSignatureQuota(tx, signer.organizationId, signer.userId, qualifier);
  if (!row) return;
  if (!roleSettingAllows(row.roleSettings, ROLE_SIGN_FLAGS[qualifier])) throw roleRefusal(qualifier);
  const quota = quotaOf(row, qualifier);
  if ((await countOneSignature(tx, row.membershipId, qualifier, quota)) !== null) return;
  throw quotaRefusal(qualifier, quota, row.used);
}

function roleRefusal(qualifier: SignatureQualifier): AppError {
  return new AppError(
    'ROLE_SIGNATURE_NOT_ALLOWED',
    `Your role in this organization does not allow ${QUALIFIER_NAMES[qualifier].toLowerCase()} signatures`,
    { qualifier },
  );
}

/** SIGNATURE_QUOTA_EXCEEDED, whose description SPEC.md fixes, so responseBody names the qualifier. */
function quotaRefusal(qualifier: SignatureQualifier, quota: number, used: number): AppError {
  return new AppError(
    'SIGNATURE_QUOTA_EXCEEDED',
    `${QUALIFIER_NAMES[qualifier]} signature quota exceeded: ${used} of ${quota} used`,
    { qualifier, quota, used },
  );
}

/**
 * What the signer may still sign with `qualifier` in the organization (RUNTIME.md check-user-credits): allowed
 * by the role, and the quota left (null: not a member, no personal quota).
 */
export async function signatureAllowance(
  db: DbOrTx,
  signer: { organizationId: number; userId: number },
  qualifier: SignatureQualifier,
): Promise<{ allowed: boolean; remaining: number | null }> {
  const row = await findSignatureQuota(db, signer.organizationId, signer.userId, qualifier);
  if (!row) return { allowed: true, remaining: null };
  const remaining = Math.max(0, quotaOf(row, qualifier) - row.used);
  return { allowed: roleSettingAllows(row.roleSettings, ROLE_SIGN_FLAGS[qualifier]) && remaining > 0, remaining };
}

/**
 * Throws what countSignature would (ROLE_SIGNATURE_NOT_ALLOWED, SIGNATURE_QUOTA_EXCEEDED) without counting: a
 * remote (CSC) signature is checked before the signer is sent to the provider, and counted when it is appended.
 */
export async function assertSignatureAllowed(
  db: DbOrTx,
  signer: { organizationId: number; userId: number },
  qualifier: SignatureQualifier,
): Promise<void> {
  const row = await findSignatureQuota(db, signer.organizationId, signer.userId, qualifier);
  if (!row) return;
  if (!roleSettingAllows(row.roleSettings, ROLE_SIGN_FLAGS[qualifier])) throw roleRefusal(qualifier);
  const quota = quotaOf(row, qualifier);
  if (row.used >= quota) throw quotaRefusal(qualifier, quota, row.used);
}

/**
 * The kinds of signature the organization's plan offers (RUNTIME.md service-plan-qualifier): those its package
 * gives a quota above 0. A plan without advanced or qualified quota offers only electronic signatures, to members
 * and to the guests who sign its workflows alike.
 */
export async function qualifiersInPlan(db: DbOrTx, organizationId: number): Promise<SignatureQualifier[]> {
  const quotas = await findPackageQuotas(db, organizationId);
  if (!quotas) return [];
  return (['ELECTRONIC', 'ADVANCED', 'QUALIFIED'] as const).filter((qualifier) => quotas[qualifier] > 0);
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

/**
 * A Power Survey's commence: the recipient count within the plan's powerSurveyRecipientLimit (at most the limit;
 * SURVEY_RECIPIENT_LIMIT), then one credit per recipient debited at once, all or none (INSUFFICIENT_CREDITS). The
 * children are sent prepaid, so a dispatch that has started never stops for want of credit. Returns the balance.
 * The caller has passed assertMaySend in the same transaction (which holds the organization's row lock).
 */
export async function debitSurvey(tx: DbOrTx, organizationId: number, recipientCount: number): Promise<number> {
  const limit = await surveyRecipientLimit(tx, organizationId);
  if (recipientCount > limit) {
    throw new AppError(
      'SURVEY_RECIPIENT_LIMIT',
      `The survey has ${recipientCount} recipients; the plan allows at most ${limit}`,
      { limit, recipientCount },
    );
  }
  const credits = await debitCreditsAtOnce(tx, organizationId, recipientCount);
  if (credits === null)
    throw new AppError(
      'INSUFFICIENT_CREDITS',
      `Insufficient credit balance: the survey needs ${recipientCount} credits, one per recipient`,
      { needed: recipientCount },
    );
  return credits;
}
