import crypto from 'node:crypto';
import type { Tx } from '../../platform/db/client.ts';
import { hasActivity } from './signing.repo.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { recordActivity } from '../activities/activities.service.ts';
import type { RecipientRow } from '../workflows/workflow-access.ts';

/**
 * The electronic-signature disclosure, verbatim. Clients show exactly this text (GET
 * /workflow/v1/signing/disclosure) before a recipient's first save; the consent record stores it with its
 * hash, so changing a word here changes the hash of every later consent and leaves earlier ones provable.
 */
export const ESIGN_DISCLOSURE = [
  'Electronic signature disclosure.',
  'By saving, signing or approving this document you agree to use electronic records and signatures for it.',
  'Your electronic signature, initials and the values you enter have the same effect as your handwritten signature and entries on paper.',
  'You will receive the completed, sealed document electronically; you may ask the sender for a paper copy.',
  'You may withdraw this consent at any time before you finish by declining to sign.',
  'To prove what happened, the service records your name, email address, IP address, device (user agent) and the time of each of your actions.',
].join(' ');

export const ESIGN_DISCLOSURE_HASH = crypto.createHash('sha256').update(ESIGN_DISCLOSURE, 'utf8').digest('hex');

export const CONSENT_KIND = 'CONSENT_ACCEPTED';

/** How the caller reached the workflow: a signing link, a signed-in account, or a partner app's token. */
function sourceOf(caller: Caller, context: RequestContext): string {
  if (caller.kind === 'guest') return 'SIGNING_LINK';
  return context.accessChannel === 'api' ? 'PARTNER_APP' : 'USER_ACCOUNT';
}

/**
 * Records the recipient's acceptance of the disclosure the first time it acts (SPEC.md "Workflow history":
 * consent is set only on that row). Later actions add nothing. The caller holds the workflow row lock, so
 * two first actions of one recipient cannot both record it.
 */
export async function recordConsentOnce(
  tx: Tx,
  input: { caller: Caller; recipient: RecipientRow; context: RequestContext; evidence: string; workflowStatus: string },
): Promise<boolean> {
  const { caller, recipient, context } = input;
  if (await hasActivity(tx, recipient.workflowId, recipient.id, CONSENT_KIND)) return false;
  await recordActivity(tx, {
    workflowId: recipient.workflowId,
    kind: CONSENT_KIND,
    action: 'Consent accepted',
    sentence: `${recipient.name} accepted the electronic-signature disclosure`,
    userId: caller.userId,
    userName: recipient.name,
    recipientId: recipient.id,
    status: input.workflowStatus,
    context,
    consent: {
      recipientName: recipient.name,
      recipientEmail: recipient.email,
      ipAddress: context.ipAddress,
      accessChannel: context.accessChannel,
      source: sourceOf(caller, context),
      evidence: input.evidence,
      textHash: ESIGN_DISCLOSURE_HASH,
      text: ESIGN_DISCLOSURE,
      userAgent: context.userAgent,
    },
  });
  return true;
}
