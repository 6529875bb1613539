import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { documents, recipientPasswordPasses, recipients, users, workflows } from '../../platform/db/schema/index.ts';

export type WorkflowRow = typeof workflows.$inferSelect;
export type RecipientRow = typeof recipients.$inferSelect;
export type NewWorkflow = typeof workflows.$inferInsert;
export type NewRecipient = typeof recipients.$inferInsert;

const liveWorkflow = (db: DbOrTx) =>
  db
    .select()
    .from(workflows)
    .where(and(eq(workflows.id, sql.placeholder('workflowId')), isNull(workflows.deletedAt)));
const liveWorkflowRead = preparedStatement('workflow_live', liveWorkflow);
// FOR NO KEY UPDATE, not FOR UPDATE, throughout: it serializes the lockers alike, but does not block the foreign-key
// checks (FOR KEY SHARE, at commit: the keys are deferred) of other transactions writing rows that refer to the row.
// Under FOR UPDATE every transaction that wrote a child of a locked organization waited at its commit for the send
// holding it (bench/README.md "Lifecycle throughput").
const liveWorkflowLocked = preparedStatement('workflow_live_locked', (db) => liveWorkflow(db).for('no key update'));

/** A workflow that is not deleted; `lock` takes its row lock for the rest of the transaction. */
export async function findLiveWorkflow(db: DbOrTx, workflowId: number, lock = false): Promise<WorkflowRow | null> {
  const [row] = await (lock ? liveWorkflowLocked : liveWorkflowRead)(db).execute({ workflowId });
  return row ?? null;
}

const recipientOfWorkflow = preparedStatement('workflow_recipient', (db) =>
  db
    .select()
    .from(recipients)
    .where(
      and(eq(recipients.id, sql.placeholder('recipientId')), eq(recipients.workflowId, sql.placeholder('workflowId'))),
    ),
);

export async function findRecipientOfWorkflow(
  db: DbOrTx,
  workflowId: number,
  recipientId: number,
): Promise<RecipientRow | null> {
  const [row] = await recipientOfWorkflow(db).execute({ workflowId, recipientId });
  return row ?? null;
}

/**
 * A live workflow and one of its recipient rows in one statement (a signing link's redemption; a guest's save, which
 * also names one of the workflow's documents). Locked, both rows are: a lock waited for hands the statement the rows as
 * the holder committed them, which it does only for the rows it locks (a recipient row read in the same statement but
 * not locked would be the one from before the wait, e.g. not yet delegated away).
 */
const workflowWithRecipient = (db: DbOrTx) =>
  db
    .select({ workflow: workflows, recipient: recipients })
    .from(workflows)
    .innerJoin(
      recipients,
      and(eq(recipients.workflowId, workflows.id), eq(recipients.id, sql.placeholder('recipientId'))),
    );
const isLiveWorkflow = and(eq(workflows.id, sql.placeholder('workflowId')), isNull(workflows.deletedAt));
const workflowWithRecipientRead = preparedStatement('workflow_live_with_recipient', (db) =>
  workflowWithRecipient(db).where(isLiveWorkflow),
);
const workflowWithRecipientLocked = preparedStatement('workflow_live_with_recipient_locked', (db) =>
  workflowWithRecipient(db)
    .where(isLiveWorkflow)
    .for('no key update', { of: [workflows, recipients] }),
);
const workflowWithRecipientOfDocumentLocked = preparedStatement(
  'workflow_live_with_recipient_of_document_locked',
  (db) =>
    workflowWithRecipient(db)
      .innerJoin(
        documents,
        and(eq(documents.workflowId, workflows.id), eq(documents.id, sql.placeholder('documentId'))),
      )
      .where(isLiveWorkflow)
      .for('no key update', { of: [workflows, recipients] }),
);

/** findLiveWorkflow and findRecipientOfWorkflow at once; null when either is missing. */
export async function findLiveWorkflowWithRecipient(
  db: DbOrTx,
  workflowId: number,
  recipientId: number,
  lock = false,
): Promise<{ workflow: WorkflowRow; recipient: RecipientRow } | null> {
  const [row] = await (lock ? workflowWithRecipientLocked : workflowWithRecipientRead)(db).execute({
    workflowId,
    recipientId,
  });
  return row ?? null;
}

/** The same, locked, for a document that must be the workflow's: null when the document is not. */
export async function lockLiveWorkflowWithRecipientOfDocument(
  db: DbOrTx,
  workflowId: number,
  recipientId: number,
  documentId: number,
): Promise<{ workflow: WorkflowRow; recipient: RecipientRow } | null> {
  const [row] = await workflowWithRecipientOfDocumentLocked(db).execute({ workflowId, recipientId, documentId });
  return row ?? null;
}

const rowsOfUser = preparedStatement('workflow_rows_of_user', (db) =>
  db
    .select({ row: recipients, emailVerifiedAt: users.emailVerifiedAt })
    .from(recipients)
    .innerJoin(users, eq(users.id, recipients.userId))
    .where(
      and(eq(recipients.workflowId, sql.placeholder('workflowId')), eq(recipients.userId, sql.placeholder('userId'))),
    ),
);

/** A user's recipient rows of one workflow, each with whether the user's email is verified. */
export async function findRowsOfUserWithVerification(
  db: DbOrTx,
  workflowId: number,
  userId: number,
): Promise<{ row: RecipientRow; emailVerifiedAt: Date | null }[]> {
  return rowsOfUser(db).execute({ workflowId, userId });
}

export async function updateWorkflow(
  db: DbOrTx,
  workflowId: number,
  values: Partial<NewWorkflow>,
): Promise<WorkflowRow> {
  const [row] = await db.update(workflows).set(values).where(eq(workflows.id, workflowId)).returning();
  return row;
}

const recipientsInOrder = preparedStatement('workflow_recipients', (db) =>
  db
    .select()
    .from(recipients)
    .where(eq(recipients.workflowId, sql.placeholder('workflowId')))
    .orderBy(sql`${recipients.recipientOrder} asc nulls last`, asc(recipients.id)),
);

/** Every recipient row of a workflow, hidden ones included, in signing order: recipientOrder (unordered rows last), then id. */
export async function findRecipientsOfWorkflow(db: DbOrTx, workflowId: number): Promise<RecipientRow[]> {
  return recipientsInOrder(db).execute({ workflowId });
}

/** findRecipientsOfWorkflow for many workflows in one statement: each workflow's rows in signing order. */
export async function findRecipientsOfWorkflows(
  db: DbOrTx,
  workflowIds: number[],
): Promise<Map<number, RecipientRow[]>> {
  const byWorkflow = new Map<number, RecipientRow[]>(workflowIds.map((id) => [id, []]));
  if (workflowIds.length === 0) return byWorkflow;
  const rows = await db
    .select()
    .from(recipients)
    .where(inArray(recipients.workflowId, workflowIds))
    .orderBy(recipients.workflowId, sql`${recipients.recipientOrder} asc nulls last`, asc(recipients.id));
  for (const row of rows) byWorkflow.get(row.workflowId)?.push(row);
  return byWorkflow;
}

export async function insertRecipient(db: DbOrTx, values: NewRecipient): Promise<RecipientRow> {
  const [row] = await db.insert(recipients).values(values).returning();
  return row;
}

export async function setRecipientOrder(
  db: DbOrTx,
  workflowId: number,
  recipientId: number,
  recipientOrder: number,
): Promise<void> {
  await db
    .update(recipients)
    .set({ recipientOrder })
    .where(and(eq(recipients.id, recipientId), eq(recipients.workflowId, workflowId)));
}

/** Multi-row inserts of at most this many rows (PostgreSQL takes at most 65,535 parameters per statement). */
const INSERT_CHUNK = 1000;

/** Inserts many workflows in few statements; the returned rows are in the order of `values`. */
export async function insertWorkflows(db: DbOrTx, values: (typeof workflows.$inferInsert)[]): Promise<WorkflowRow[]> {
  const rows: WorkflowRow[] = [];
  for (let start = 0; start < values.length; start += INSERT_CHUNK)
    rows.push(
      ...(await db
        .insert(workflows)
        .values(values.slice(start, start + INSERT_CHUNK))
        .returning()),
    );
  return rows;
}

/** Inserts many recipient rows in few statements; the returned rows are in the order of `values`. */
export async function insertRecipients(
  db: DbOrTx,
  values: (typeof recipients.$inferInsert)[],
): Promise<RecipientRow[]> {
  const rows: RecipientRow[] = [];
  for (let start = 0; start < values.length; start += INSERT_CHUNK)
    rows.push(
      ...(await db
        .insert(recipients)
        .values(values.slice(start, start + INSERT_CHUNK))
        .returning()),
    );
  return rows;
}

/** Files the workflows into a personal folder (the folders module checks ownership first). */
export async function setWorkflowsFolder(db: DbOrTx, ids: number[], folderId: number): Promise<void> {
  await db.update(workflows).set({ folderId }).where(inArray(workflows.id, ids));
}

/** Deleted workflows are unfiled too, so no row keeps pointing at a folder that is gone. */
export async function unfileFolder(db: DbOrTx, folderId: number): Promise<void> {
  await db.update(workflows).set({ folderId: null }).where(eq(workflows.folderId, folderId));
}

/** Every SENT child of a Power Survey becomes `status` (the parent's decline); answers how many. */
export async function setSentChildrenStatus(tx: DbOrTx, parentId: number, status: string, at: Date): Promise<number[]> {
  const rows = await tx
    .update(workflows)
    .set({ status, statusAt: at })
    .where(and(eq(workflows.parentWorkflowId, parentId), eq(workflows.status, 'SENT')))
    .returning({ id: workflows.id });
  return rows.map((row) => row.id);
}

/** Whether this session entered the recipient's password (signing records the pass; the gate reads it). */
export async function hasPasswordPass(db: DbOrTx, recipientId: number, sessionId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: recipientPasswordPasses.id })
    .from(recipientPasswordPasses)
    .where(and(eq(recipientPasswordPasses.recipientId, recipientId), eq(recipientPasswordPasses.sessionId, sessionId)))
    .limit(1);
  return Boolean(row);
}
