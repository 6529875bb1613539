import { eq } from 'drizzle-orm';
import { documents, recipients, workflows } from '../../src/platform/db/schema/index.ts';
import { recordActivity, type ActivityInput } from '../../src/modules/activities/activities.service.ts';
import type { TestApp } from './test-app.ts';

/**
 * Database states of a workflow's life, written directly, for tests of modules that read them (history,
 * evidence, downloads, reminders) and are not about the calls that produce them.
 */

export async function addActivity(t: TestApp, input: ActivityInput) {
  return t.platform.db.transaction((tx) => recordActivity(tx, input));
}

/** Marks a workflow SENT and the given recipients dispatched (status SENT) at `at`. */
export async function markSent(t: TestApp, workflowId: number, dispatchedRecipientIds: number[], at = new Date()) {
  await t.platform.db
    .update(workflows)
    .set({ status: 'SENT', sentAt: at, statusAt: at })
    .where(eq(workflows.id, workflowId));
  for (const id of dispatchedRecipientIds) {
    await t.platform.db.update(recipients).set({ status: 'SENT', dispatchedAt: at }).where(eq(recipients.id, id));
  }
}

export async function setRecipient(t: TestApp, recipientId: number, values: Partial<typeof recipients.$inferInsert>) {
  const [row] = await t.platform.db.update(recipients).set(values).where(eq(recipients.id, recipientId)).returning();
  return row;
}

export async function setWorkflow(t: TestApp, workflowId: number, values: Partial<typeof workflows.$inferInsert>) {
  const [row] = await t.platform.db.update(workflows).set(values).where(eq(workflows.id, workflowId)).returning();
  return row;
}

/** COMPLETED with the seal landed: `sealedBytes` stored as the document's sealed file. */
export async function markCompleted(
  t: TestApp,
  workflowId: number,
  documentId: number,
  sealedBytes: Uint8Array,
  at = new Date(),
) {
  const sealed = await t.platform.blobs.put(sealedBytes);
  await t.platform.db
    .update(documents)
    .set({ sealedBlobKey: sealed.key, sealedSize: sealed.size })
    .where(eq(documents.id, documentId));
  await setWorkflow(t, workflowId, { status: 'COMPLETED', statusAt: at, completedAt: at, sealStatus: 'SEALED' });
  return sealed.key;
}
