import { and, asc, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { intArray, preparedShapes, preparedStatement } from '../../platform/db/prepared.ts';
import {
  activities,
  documents,
  fields,
  identityChallenges,
  recipientPasswordPasses,
  recipients,
  workflows,
} from '../../platform/db/schema/index.ts';
import type { RecipientRow, WorkflowRow } from '../workflows/workflow-access.ts';

/**
 * The signing module's queries. Signing co-writes the envelope's tables (ARCHITECTURE.md, table owners): the
 * status and progress columns of workflows and recipients and the values of fields, always under the workflow
 * row lock its services take first; its own tables are identity_challenges and recipient_password_passes.
 */

export type FieldRow = typeof fields.$inferSelect;
export type DocumentRow = typeof documents.$inferSelect;
export type IdentityChallengeRow = typeof identityChallenges.$inferSelect;

// ---- workflows

const workflowRow = preparedStatement('workflow_row', (db) =>
  db
    .select()
    .from(workflows)
    .where(eq(workflows.id, sql.placeholder('workflowId'))),
);

export async function findWorkflowRow(db: DbOrTx, workflowId: number): Promise<WorkflowRow | null> {
  const [row] = await workflowRow(db).execute({ workflowId });
  return row ?? null;
}

/** The row under FOR NO KEY UPDATE (workflows.repo.ts says why not FOR UPDATE): every action on one workflow is serialized by this lock. */
/** Workflow rows by id, in id order (a voided survey's children). */
export async function findWorkflowRows(db: DbOrTx, workflowIds: number[]): Promise<WorkflowRow[]> {
  if (workflowIds.length === 0) return [];
  return db.select().from(workflows).where(inArray(workflows.id, workflowIds)).orderBy(asc(workflows.id));
}

export async function lockWorkflowRow(tx: DbOrTx, workflowId: number): Promise<WorkflowRow | null> {
  const [row] = await tx.select().from(workflows).where(eq(workflows.id, workflowId)).for('no key update');
  return row ?? null;
}

export async function updateWorkflowRow(
  db: DbOrTx,
  workflowId: number,
  values: Partial<typeof workflows.$inferInsert>,
): Promise<WorkflowRow> {
  const [row] = await db.update(workflows).set(values).where(eq(workflows.id, workflowId)).returning();
  return row;
}

/** Finished workflows whose seal has been PENDING since before `completedBefore` (the seal watchdog's candidates). */
export async function findStalePendingSeals(db: DbOrTx, completedBefore: Date): Promise<number[]> {
  const rows = await db
    .select({ id: workflows.id })
    .from(workflows)
    .where(
      and(
        inArray(workflows.status, ['COMPLETED', 'APPROVED']),
        eq(workflows.sealStatus, 'PENDING'),
        lt(workflows.completedAt, completedBefore),
      ),
    );
  return rows.map((r) => r.id);
}

// ---- documents

const documentsInOrder = preparedStatement('signing_documents_in_order', (db) =>
  db
    .select()
    .from(documents)
    .where(eq(documents.workflowId, sql.placeholder('workflowId')))
    .orderBy(asc(documents.position), asc(documents.id)),
);

export async function findDocumentsInOrder(db: DbOrTx, workflowId: number): Promise<DocumentRow[]> {
  return documentsInOrder(db).execute({ workflowId });
}

const documentWorkflowId = preparedStatement('document_workflow_id', (db) =>
  db
    .select({ workflowId: documents.workflowId })
    .from(documents)
    .where(eq(documents.id, sql.placeholder('documentId'))),
);

export async function findDocumentWorkflowId(db: DbOrTx, documentId: number): Promise<number | null> {
  const [row] = await documentWorkflowId(db).execute({ documentId });
  return row?.workflowId ?? null;
}

/** Links a document to its sealed file unless a concurrent run got there first (that run keeps its file). */
export async function setSealedFile(
  db: DbOrTx,
  documentId: number,
  stored: { key: string; size: number },
): Promise<void> {
  await db
    .update(documents)
    .set({ sealedBlobKey: stored.key, sealedSize: stored.size })
    .where(and(eq(documents.id, documentId), isNull(documents.sealedBlobKey)));
}

// ---- recipients

export async function findRecipientsById(db: DbOrTx, workflowId: number): Promise<RecipientRow[]> {
  return db.select().from(recipients).where(eq(recipients.workflowId, workflowId)).orderBy(asc(recipients.id));
}

export async function findRecipient(db: DbOrTx, recipientId: number): Promise<RecipientRow | null> {
  const [row] = await db.select().from(recipients).where(eq(recipients.id, recipientId));
  return row ?? null;
}

type RecipientValues = Partial<typeof recipients.$inferInsert>;

/** One statement per set of columns written (and which of them are set to null): `shape` lists them, `name=null` for a null. */
const recipientUpdate = preparedShapes('recipient_update', (db, shape: string) =>
  db
    .update(recipients)
    .set(
      Object.fromEntries(
        shape
          .split(',')
          .map((entry) => (entry.endsWith('=null') ? [entry.slice(0, -5), null] : [entry, sql.placeholder(entry)])),
      ) as RecipientValues,
    )
    .where(eq(recipients.id, sql.placeholder('recipientId')))
    .returning(),
);

export async function updateRecipient(db: DbOrTx, recipientId: number, values: RecipientValues): Promise<RecipientRow> {
  const entries = Object.entries(values).filter(([, value]) => value !== undefined);
  // Plain values only: a SQL expression (or any other object but a date) is built as it comes.
  if (
    entries.length === 0 ||
    entries.some(([, value]) => value !== null && typeof value === 'object' && !(value instanceof Date))
  ) {
    const [row] = await db.update(recipients).set(values).where(eq(recipients.id, recipientId)).returning();
    return row;
  }
  // A null goes into the text rather than through a placeholder: a timestamp column's encoder cannot take one.
  const shape = entries
    .map(([key, value]) => (value === null ? `${key}=null` : key))
    .sort()
    .join(',');
  const [row] = await recipientUpdate(db, shape).execute({ ...Object.fromEntries(entries), recipientId });
  return row;
}

/** updateRecipient for many rows at once (the same values); answers the updated rows. */
export async function updateRecipients(
  db: DbOrTx,
  recipientIds: number[],
  values: Partial<typeof recipients.$inferInsert>,
): Promise<RecipientRow[]> {
  if (recipientIds.length === 0) return [];
  return db.update(recipients).set(values).where(inArray(recipients.id, recipientIds)).returning();
}

export async function insertRecipientRow(db: DbOrTx, values: typeof recipients.$inferInsert): Promise<RecipientRow> {
  const [row] = await db.insert(recipients).values(values).returning();
  return row;
}

/** Whether `email` (lower-cased) is already an active (not delegated-away) recipient of the workflow. */
export async function isActiveRecipientEmail(db: DbOrTx, workflowId: number, email: string): Promise<boolean> {
  const [taken] = await db
    .select({ id: recipients.id })
    .from(recipients)
    .where(
      and(
        eq(recipients.workflowId, workflowId),
        ne(recipients.status, 'DELEGATED'),
        sql`lower(${recipients.email}) = ${email}`,
      ),
    )
    .limit(1);
  return Boolean(taken);
}

/** The declined rows of a workflow and, for a Power Survey parent, of its children, oldest first. */
export async function findDeclinedRows(db: DbOrTx, workflowId: number): Promise<RecipientRow[]> {
  const children = db.select({ id: workflows.id }).from(workflows).where(eq(workflows.parentWorkflowId, workflowId));
  return db
    .select()
    .from(recipients)
    .where(
      and(
        eq(recipients.status, 'DECLINED'),
        or(eq(recipients.workflowId, workflowId), inArray(recipients.workflowId, children)),
      ),
    )
    .orderBy(asc(recipients.actedAt), asc(recipients.id));
}

// ---- fields

const fieldsOfWorkflow = preparedStatement('fields_of_workflow', (db) =>
  db
    .select()
    .from(fields)
    .where(eq(fields.workflowId, sql.placeholder('workflowId'))),
);
const fieldsOfRecipient = preparedStatement('fields_of_recipient', (db) =>
  db
    .select()
    .from(fields)
    .where(
      and(eq(fields.workflowId, sql.placeholder('workflowId')), eq(fields.recipientId, sql.placeholder('recipientId'))),
    ),
);

export async function findFieldsOfWorkflow(db: DbOrTx, workflowId: number): Promise<FieldRow[]> {
  return fieldsOfWorkflow(db).execute({ workflowId });
}

export async function findFieldsOfRecipient(db: DbOrTx, workflowId: number, recipientId: number): Promise<FieldRow[]> {
  return fieldsOfRecipient(db).execute({ workflowId, recipientId });
}

const namedOrOwnFields = preparedStatement('fields_named_or_own', (db) =>
  db
    .select()
    .from(fields)
    .where(
      and(
        eq(fields.workflowId, sql.placeholder('workflowId')),
        or(
          eq(fields.recipientId, sql.placeholder('recipientId')),
          sql`${fields.id} = any(${sql.placeholder('ids')}::int[])`,
        ),
      ),
    ),
);

/**
 * The fields of a workflow among `ids` (whoever they belong to) and every field of one recipient: what a save checks
 * and, with its writes applied, whether the recipient has finished, in one statement.
 */
export async function findFieldsNamedOrOwn(
  db: DbOrTx,
  workflowId: number,
  recipientId: number,
  ids: number[],
): Promise<FieldRow[]> {
  return namedOrOwnFields(db).execute({ workflowId, recipientId, ids: intArray(ids) });
}

export async function setFieldValue(
  db: DbOrTx,
  fieldId: number,
  value: string | null,
  filledAt: Date | null,
  signatureAssetId: number | null,
): Promise<void> {
  await db
    .update(fields)
    .set({ value, filledAt, ...(signatureAssetId !== null ? { signatureAssetId } : {}) })
    .where(eq(fields.id, fieldId));
}

export type FieldValueWrite = {
  fieldId: number;
  value: string | null;
  filledAt: Date | null;
  signatureAssetId: number | null;
};

/**
 * setFieldValue for several fields in one statement (a save of a recipient's fields): each row's value and time,
 * and its library entry where one is given (null keeps the one it had, as setFieldValue does).
 */
export async function setFieldValues(db: DbOrTx, writes: FieldValueWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const rows = sql.join(
    writes.map(
      (write) =>
        sql`(${write.fieldId}::int, ${write.value}::text, ${write.filledAt?.toISOString() ?? null}::timestamptz, ${write.signatureAssetId}::int)`,
    ),
    sql`, `,
  );
  await db.execute(sql`update ${fields} set "value" = v.value, "filled_at" = v.filled_at, "signature_asset_id" = coalesce(v.asset, ${fields.signatureAssetId})
    from (values ${rows}) as v(id, value, filled_at, asset) where ${fields.id} = v.id`);
}

/** A delegation moves the original's fields to the delegate, emptied: what the original typed is not the delegate's. */
export async function moveFieldsEmpty(db: DbOrTx, fromRecipientId: number, toRecipientId: number): Promise<void> {
  await db
    .update(fields)
    .set({ recipientId: toRecipientId, value: null, signatureAssetId: null, filledAt: null })
    .where(eq(fields.recipientId, fromRecipientId));
}

/** How many documents each workflow holds, in one statement (a workflow without documents is absent). */
export async function countDocumentsOf(db: DbOrTx, workflowIds: number[]): Promise<Map<number, number>> {
  if (workflowIds.length === 0) return new Map();
  const rows = await db
    .select({ workflowId: documents.workflowId, total: sql<number>`count(*)::int` })
    .from(documents)
    .where(inArray(documents.workflowId, workflowIds))
    .groupBy(documents.workflowId);
  return new Map(rows.map((row) => [row.workflowId, row.total]));
}

/** updateWorkflowRow for many workflows at once (the same values); answers the updated rows. */
export async function updateWorkflowRows(
  db: DbOrTx,
  workflowIds: number[],
  values: Partial<typeof workflows.$inferInsert>,
): Promise<WorkflowRow[]> {
  if (workflowIds.length === 0) return [];
  return db.update(workflows).set(values).where(inArray(workflows.id, workflowIds)).returning();
}

// ---- activities (read only: the consent record is written through the activities module)

const activityOfRecipient = preparedStatement('activity_of_recipient', (db) =>
  db
    .select({ id: activities.id })
    .from(activities)
    .where(
      and(
        eq(activities.workflowId, sql.placeholder('workflowId')),
        eq(activities.recipientId, sql.placeholder('recipientId')),
        eq(activities.kind, sql.placeholder('kind')),
      ),
    )
    .limit(1),
);

export async function hasActivity(db: DbOrTx, workflowId: number, recipientId: number, kind: string): Promise<boolean> {
  const [row] = await activityOfRecipient(db).execute({ workflowId, recipientId, kind });
  return Boolean(row);
}

// ---- identity challenges (one-time codes)

export async function findChallenge(db: DbOrTx, recipientId: number): Promise<IdentityChallengeRow | null> {
  const [row] = await db.select().from(identityChallenges).where(eq(identityChallenges.recipientId, recipientId));
  return row ?? null;
}

/** A fresh code replaces the recipient's previous one (one live challenge per recipient). */
export async function putChallenge(
  db: DbOrTx,
  recipientId: number,
  values: { codeHash: string; attempts: number; sentAt: Date; expiresAt: Date; verifiedAt: null },
): Promise<void> {
  await db
    .insert(identityChallenges)
    .values({ recipientId, ...values })
    .onConflictDoUpdate({ target: identityChallenges.recipientId, set: values });
}

/** One more wrong attempt on the challenge; answers the new count. */
export async function countChallengeAttempt(db: DbOrTx, challengeId: number): Promise<number> {
  const [row] = await db
    .update(identityChallenges)
    .set({ attempts: sql`${identityChallenges.attempts} + 1` })
    .where(eq(identityChallenges.id, challengeId))
    .returning();
  return row.attempts;
}

export async function markChallengeVerified(db: DbOrTx, challengeId: number, at: Date): Promise<void> {
  await db.update(identityChallenges).set({ verifiedAt: at }).where(eq(identityChallenges.id, challengeId));
}

// ---- recipient password passes

export async function recordPasswordPass(db: DbOrTx, recipientId: number, sessionId: string): Promise<void> {
  await db.insert(recipientPasswordPasses).values({ recipientId, sessionId }).onConflictDoNothing();
}
