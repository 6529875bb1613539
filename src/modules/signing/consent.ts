import type { Tx } from '../../platform/db/client.ts';
import { hasActivity } from './signing.repo.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { AppError } from '../../errors.ts';
import { disclosureByHash, disclosureFor, type Disclosure } from './disclosures.ts';
import type { RecipientRow } from '../workflows/workflow-access.ts';

/** The English disclosure: what a client that names none showed (disclosures.ts holds every language). */
const ENGLISH = disclosureFor('en');

export const CONSENT_KIND = 'CONSENT_ACCEPTED';

/** How the caller reached the workflow: a signing link, a signed-in account, or a partner app's token. */
function sourceOf(caller: Caller, context: RequestContext): string {
  if (caller.kind === 'guest') return 'SIGNING_LINK';
  return context.accessChannel === 'api' ? 'PARTNER_APP' : 'USER_ACCOUNT';
}

/**
 * The disclosure the client says it showed (header X-Disclosure-SHA256), English when it names none. A hash of no
 * current text (a page older than a change of the text) is refused rather than recorded as a text not shown: the
 * page loads the disclosure again and the signer reads it.
 */
function shownDisclosure(context: RequestContext): Disclosure {
  if (!context.disclosureHash) return ENGLISH;
  const shown = disclosureByHash(context.disclosureHash);
  if (!shown)
    throw new AppError(
      'INVALID_REQUEST_BODY',
      'The electronic-signature disclosure named by X-Disclosure-SHA256 is not the current one: load it again (GET /workflow/v1/signing/disclosure) and show it before acting',
    );
  return shown;
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
  const shown = shownDisclosure(context);
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
      textHash: shown.textHash,
      text: shown.text,
      userAgent: context.userAgent,
    },
  });
  return true;
}
