import crypto from 'node:crypto';
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import { activities } from '../../platform/db/schema/index.ts';
import type { RequestContext } from '../../http/request-context.ts';

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

type ActivityRow = typeof activities.$inferSelect;

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
  await tx.execute(sql`select pg_advisory_xact_lock(${ACTIVITY_LOCK_SPACE}, ${input.workflowId})`);
  const [previous] = await tx.select({ hash: activities.hash }).from(activities)
    .where(eq(activities.workflowId, input.workflowId)).orderBy(desc(activities.id)).limit(1);
  const row = {
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
    createdAt: new Date(Math.floor(Date.now())),
    prevHash: previous?.hash ?? '',
  };
  const [inserted] = await tx.insert(activities).values({ ...row, hash: activityHash(row) }).returning();
  return inserted;
}

const ACTIVITY_LOCK_SPACE = 41;

export async function listActivities(db: DbOrTx, workflowId: number): Promise<ActivityRow[]> {
  return db.select().from(activities).where(eq(activities.workflowId, workflowId)).orderBy(asc(activities.id));
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
