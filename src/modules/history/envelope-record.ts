import type { DbOrTx } from '../../platform/db/client.ts';
import { listActivities, verifyChain, type ActivityRow } from '../activities/activities.service.ts';
import { isFinished } from '../signing/acting-recipient.ts';
import type { RecipientRow, WorkflowRow } from '../workflows/workflow-access.ts';
import { findUserIdentity } from './history.repo.ts';
import { findWorkflowDocuments, type DocumentRow } from '../documents/documents.service.ts';
import { findRecipientsInSigningOrder } from '../workflows/workflow-access.ts';
import { resolveTimeZone } from './history-time.ts';

export type { ActivityRow };

/** The result of walking the activity hash chain. */
export type ChainCheck = { intact: boolean; rowCount: number; breaks: { position: number; activityId: number }[] };

/**
 * Everything the history, the evidence report and the certificate of completion are made of, read in one
 * place so the three cannot disagree.
 */
export type EnvelopeRecord = {
  workflow: WorkflowRow;
  timeZone: string;
  owner: { name: string; email: string };
  documents: DocumentRow[];
  /** Every recipient row, hidden assistant rows included. */
  recipients: RecipientRow[];
  /** Every stored activity row, oldest first (what the chain covers). */
  activities: ActivityRow[];
  chain: ChainCheck;
};

export async function loadEnvelopeRecord(db: DbOrTx, workflow: WorkflowRow): Promise<EnvelopeRecord> {
  const [owner, documents, recipients, rows] = await Promise.all([
    findUserIdentity(db, workflow.ownerUserId),
    findWorkflowDocuments(db, workflow.id),
    findRecipientsInSigningOrder(db, workflow.id),
    listActivities(db, workflow.id),
  ]);
  return {
    workflow,
    timeZone: resolveTimeZone(workflow.timeZone),
    owner: owner ?? { name: '', email: '' },
    documents,
    recipients,
    activities: rows,
    chain: checkChain(rows),
  };
}

export function checkChain(rows: ActivityRow[]): ChainCheck {
  const broken = new Set(verifyChain(rows));
  const breaks = rows.flatMap((row, index) =>
    broken.has(row.id) ? [{ position: index + 1, activityId: row.id }] : [],
  );
  return { intact: breaks.length === 0, rowCount: rows.length, breaks };
}

/** Recipients other participants may see: hidden assistant rows never show (SPEC.md editing rule 4). */
export function visibleRecipients(record: Pick<EnvelopeRecord, 'recipients'>): RecipientRow[] {
  return record.recipients.filter((r) => !r.isHidden);
}

/**
 * The history timeline: one Created row per envelope (the earliest document upload only), and no assistant
 * routing rows: rows of a hidden recipient row, or of an ASSISTANT_* kind. The assistant's real actions are
 * recorded against the recipient acted for, so they stay.
 */
export function historyTimeline(record: Pick<EnvelopeRecord, 'activities' | 'recipients'>): ActivityRow[] {
  const hiddenRecipientIds = new Set(record.recipients.filter((r) => r.isHidden).map((r) => r.id));
  const firstUpload = record.activities.find((a) => a.kind === 'DOCUMENT_UPLOADED');
  return record.activities.filter((a) => {
    if (a.kind === 'DOCUMENT_UPLOADED') return a === firstUpload;
    if (a.kind.startsWith('ASSISTANT_')) return false;
    return a.recipientId === null || !hiddenRecipientIds.has(a.recipientId);
  });
}

/**
 * Whose turn it is: while SENT, the dispatched action-required recipients who have not finished (several
 * under UNORDERED, joined with ", "); while DRAFT, the owner (who must send it, or sign it when SELF);
 * otherwise nobody ('').
 */
export function holderOf(record: Pick<EnvelopeRecord, 'workflow' | 'recipients' | 'owner'>): string {
  if (record.workflow.status === 'DRAFT') return record.owner.name;
  if (record.workflow.status !== 'SENT') return '';
  return visibleRecipients(record)
    .filter((r) => r.role !== 'CC' && r.dispatchedAt && !isFinished(r))
    .map((r) => r.name)
    .join(', ');
}

/** The latest activity a recipient performed (its finishing action when there is one), for IP and channel. */
export function lastActOf(record: Pick<EnvelopeRecord, 'activities'>, recipientId: number): ActivityRow | null {
  const own = record.activities.filter((a) => a.recipientId === recipientId);
  const finishing = own.filter((a) => ['SIGNED', 'APPROVED', 'DECLINED', 'DELEGATED'].includes(a.kind));
  return finishing.at(-1) ?? own.at(-1) ?? null;
}
