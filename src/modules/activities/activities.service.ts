import crypto from 'node:crypto';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import {
  findActivities,
  findLastHashes,
  insertActivities,
  insertActivity,
  lockChainHead,
  lockChains,
  type ActivityRow,
} from './activities.repo.ts';

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
    row.workflowId,
    row.kind,
    row.action,
    row.sentence,
    row.userId,
    row.userName,
    row.recipientId,
    row.ipAddress,
    row.accessChannel,
    row.userAgent,
    row.status,
    sortKeys(row.consent),
    row.createdAt.toISOString(),
    row.prevHash,
  ]);
}

/** jsonb stores object keys in its own order, so the hash must not depend on key order. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

export function activityHash(row: Omit<ActivityRow, 'id' | 'hash'>): string {
  return crypto.createHash('sha256').update(canonical(row)).digest('hex');
}

/**
 * The head of each chain this process appended to last, and the transaction that appended it. A transaction that
 * appends twice to one chain (a signature's field and its recipient's Signed, then Completed) knows the head it
 * wrote and holds the chain's advisory lock until it ends, so its later appends skip the lock and the head query.
 * Only the very transaction object that wrote the head may use it: a savepoint (its own Drizzle transaction object)
 * that appended in between, or rolled back, makes its parent look the head up again; any other transaction
 * (here or on another instance) waits for the lock and reads the committed head. Every append to `activities`
 * goes through this file, so no other writer can move a head behind it. Weakly held: a finished transaction is
 * never used again, and a bounded map of recent chains is enough to catch a transaction's second append.
 */
const chainHeads = new Map<number, { tx: WeakRef<Tx>; hash: string }>();
const CHAIN_HEADS_KEPT = 1024;

function headWrittenBy(tx: Tx, workflowId: number): string | undefined {
  const head = chainHeads.get(workflowId);
  return head && head.tx.deref() === tx ? head.hash : undefined;
}

function rememberHeads(tx: Tx, heads: Iterable<[workflowId: number, hash: string]>): void {
  const ref = new WeakRef(tx);
  for (const [workflowId, hash] of heads) {
    chainHeads.delete(workflowId);
    chainHeads.set(workflowId, { tx: ref, hash });
  }
  // Oldest first in a Map's order: drop what is beyond the bound.
  for (const workflowId of chainHeads.keys()) {
    if (chainHeads.size <= CHAIN_HEADS_KEPT) break;
    chainHeads.delete(workflowId);
  }
}

/**
 * Appends an activity to the workflow's hash chain. Must run inside the transaction of the state change it
 * records; the advisory lock keeps two concurrent appends from chaining onto the same predecessor.
 */
export async function recordActivity(tx: Tx, input: ActivityInput): Promise<ActivityRow> {
  let previousHash = headWrittenBy(tx, input.workflowId);
  if (previousHash === undefined) {
    previousHash = (await lockChainHead(tx, input.workflowId)) ?? '';
  }
  const row = activityRow(input, previousHash, new Date(Math.floor(Date.now())));
  const inserted = await insertActivity(tx, { ...row, hash: activityHash(row) });
  rememberHeads(tx, [[inserted.workflowId, inserted.hash]]);
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
  const last = new Map<number, string>();
  const unknown: number[] = [];
  for (const workflowId of new Set(inputs.map((input) => input.workflowId))) {
    const head = headWrittenBy(tx, workflowId);
    if (head === undefined) unknown.push(workflowId);
    else last.set(workflowId, head);
  }
  if (unknown.length > 0) {
    await lockChains(tx, unknown);
    for (const [workflowId, hash] of await findLastHashes(tx, unknown)) last.set(workflowId, hash);
  }
  const createdAt = new Date(Math.floor(Date.now()));
  const rows = inputs.map((input) => {
    const row = activityRow(input, last.get(input.workflowId) ?? '', createdAt);
    const hashed = { ...row, hash: activityHash(row) };
    last.set(input.workflowId, hashed.hash);
    return hashed;
  });
  const inserted = await insertActivities(tx, rows);
  rememberHeads(tx, last);
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
