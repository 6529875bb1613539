import { eq } from 'drizzle-orm';
import { documents, recipients, workflows } from '../../src/platform/db/schema/index.ts';
import type { TestApp } from './test-app.ts';

/**
 * Direct writes for tests of the document list, folders, comments and workflow settings, which read states
 * (SENT, COMPLETED, a recipient who signed) produced by other modules' endpoints.
 */
export async function updateWorkflow(t: TestApp, workflowId: number, values: Partial<typeof workflows.$inferInsert>) {
  const [row] = await t.platform.db.update(workflows).set(values).where(eq(workflows.id, workflowId)).returning();
  return row;
}

export async function updateRecipient(
  t: TestApp,
  recipientId: number,
  values: Partial<typeof recipients.$inferInsert>,
) {
  const [row] = await t.platform.db.update(recipients).set(values).where(eq(recipients.id, recipientId)).returning();
  return row;
}

/** Another document row in a workflow, sharing the first document's stored file. */
export async function addDocument(t: TestApp, workflowId: number, values: { name: string; position?: number }) {
  const [first] = await t.platform.db.select().from(documents).where(eq(documents.workflowId, workflowId)).limit(1);
  const [row] = await t.platform.db
    .insert(documents)
    .values({
      workflowId,
      name: values.name,
      position: values.position ?? 0,
      blobKey: first.blobKey,
      size: first.size,
      pages: first.pages,
      pageSizes: first.pageSizes,
    })
    .returning();
  return row;
}

export async function readWorkflow(t: TestApp, workflowId: number) {
  const [row] = await t.platform.db.select().from(workflows).where(eq(workflows.id, workflowId));
  return row;
}
