import crypto from 'node:crypto';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import { findActivities, findLastHash, findLastHashes, insertActivities, insertActivity, lockChain, lockChains, type ActivityRow } from './activities.repo.ts';

export type { ActivityRow } from './activities.repo.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { queueWebhookEvents, queueWebhookEventsForMany } from '../webhooks/webhook-events.ts';

export type ActivityInput = {
  workflowId: number;
  /** Machine kind, e.g. DOCUMENT_UPLOADED, WORKFLOW_SENT, COMMENT_ADDED. */
  kind: string;
  /** History label: Created, Sent, Opened, Signed, Approved, Declined, Delegated, Comment added, Completed. */
  action: string;
  /** Readable English sentence. */
  sentence: string;
  userId?: number | null;
  userName?: string;
  recipientId?: number | null;
  /** Workflow or recipient status after the event. */
  status?: string;
  consent?: Record<string, unknown> | null;
  context?: Partial<RequestContext>;
};


/** The fields the chain hash covers, in a fixed order. */
function canonical(row: Omit<ActivityRow, 'id' | 'hash'>): string {
  return JSON.stringify([
    row.workflowId, row.kind, row.action, row.sentence, row.userId, row.userName, row.recipientId,
    row.ipAddress, row.accessChannel, row.userAgent, row.status, sortKeys(row.consent), row.createdAt.toISOString(), row.prevHash,
  ]);
}

/** jsonb stores object keys in its own order, so the hash must not depend on key order. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]));
}

export function activityHash(row: Omit<ActivityRow, 'id' | 'hash'>): string {
  return crypto.createHash('sha256').update(canonical(row)).digest('hex');
}

/**
 * Appends an activity to the workflow's hash chain. Must run inside the transaction of the state change it
 * records; the advisory lock keeps two concurrent appends from chaining onto the same predecessor.
 */
export async function recordActivity(tx: Tx, input: ActivityInput): Promise<ActivityRow> {
  await lockChain(tx, input.workflowId);
  const previousHash = await findLastHash(tx, input.workflowId);
  const row = activityRow(input, previousHash ?? '', new Date(Math.floor(Date.now())));
  const inserted = await insertActivity(tx, { ...row, hash: activityHash(row) });
  // A change that is a webhook event (sent, opened, signed, ...) queues its deliveries in this same transaction.
  await queueWebhookEvents(tx, inserted);
  return inserted;
}

/**
 * recordActivity for many activities at once (a Power Survey batch sending hundreds of children): the same chains
 * and locks, in a handful of statements instead of four per activity. Activities of one workflow chain in the
 * order given. Returns the rows in that order.
 */
export async function recordActivities(tx: Tx, inputs: ActivityInput[]): Promise<ActivityRow[]> {
  if (inputs.length === 0) return [];
  const workflowIds = inputs.map((input) => input.workflowId);
  await lockChains(tx, workflowIds);
  const last = await findLastHashes(tx, workflowIds);
  const createdAt = new Date(Math.floor(Date.now()));
  const rows = inputs.map((input) => {
    const row = activityRow(input, last.get(input.workflowId) ?? '', createdAt);
    const hashed = { ...row, hash: activityHash(row) };
    last.set(input.workflowId, hashed.hash);
    return hashed;
  });
  const inserted = await insertActivities(tx, rows);
  await queueWebhookEventsForMany(tx, inserted);
  return inserted;
}

function activityRow(input: ActivityInput, prevHash: string, createdAt: Date): Omit<ActivityRow, 'id' | 'hash'> {
  return {
    workflowId: input.workflowId,
    kind: input.kind,
    action: input.action,
    sentence: input.sentence,
    userId: input.userId ?? null,
    userName: input.userName ?? '',
    recipientId: input.recipientId ?? null,
    ipAddress: input.context?.ipAddress ?? '',
    accessChannel: input.context?.accessChannel ?? 'web',
    userAgent: input.context?.userAgent ?? null,
    status: input.status ?? '',
    consent: input.consent ?? null,
    // Millisecond precision so the stored timestamp hashes the same after a round trip.
    createdAt,
    prevHash,
  };
}

export async function listActivities(db: DbOrTx, workflowId: number): Promise<ActivityRow[]> {
  return findActivities(db, workflowId);
}

/** Walks the chain; returns the ids of rows whose hash or link does not match (empty: intact). */
export function verifyChain(rows: ActivityRow[]): number[] {
  const broken: number[] = [];
  let previousHash = '';
  for (const row of rows) {
    const { id, hash, ...content } = row;
    if (row.prevHash !== previousHash || activityHash(content) !== hash) broken.push(id);
    previousHash = hash;
  }
  return broken;
}
