import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { comments, fields, users, workflows } from '../../platform/db/schema/index.ts';

export type CommentRow = typeof comments.$inferSelect;
export type CommentWithAuthor = CommentRow & { authorName: string };

export async function insertComment(db: DbOrTx, values: typeof comments.$inferInsert): Promise<CommentRow> {
  const [row] = await db.insert(comments).values(values).returning();
  return row;
}

/** Oldest first (ids grow with time). */
export async function findCommentsOfWorkflow(db: DbOrTx, workflowId: number): Promise<CommentWithAuthor[]> {
  const rows = await db
    .select({ comment: comments, authorName: users.name })
    .from(comments)
    .leftJoin(users, eq(users.id, comments.authorUserId))
    .where(eq(comments.workflowId, workflowId))
    .orderBy(asc(comments.id));
  return rows.map((r) => ({ ...r.comment, authorName: r.authorName ?? '' }));
}

export async function isFieldOfWorkflow(db: DbOrTx, workflowId: number, fieldId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: fields.id })
    .from(fields)
    .where(and(eq(fields.id, fieldId), eq(fields.workflowId, workflowId)));
  return Boolean(row);
}

export async function workflowExists(db: DbOrTx, workflowId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: workflows.id })
    .from(workflows)
    .where(and(eq(workflows.id, workflowId), isNull(workflows.deletedAt)));
  return Boolean(row);
}

/** Comments on fields of these documents keep their text, unlinked from the field (the documents are being deleted). */
export async function unlinkCommentsFromDocuments(db: DbOrTx, documentIds: number[]): Promise<void> {
  const fieldIds = db.select({ id: fields.id }).from(fields).where(inArray(fields.documentId, documentIds));
  await db.update(comments).set({ fieldId: null }).where(inArray(comments.fieldId, fieldIds));
}
