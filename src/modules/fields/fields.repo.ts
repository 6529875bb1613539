import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { documents, fields } from '../../platform/db/schema/index.ts';

export type FieldRow = typeof fields.$inferSelect;
export type FieldValues = typeof fields.$inferInsert;

/** A page as displayed: size in points after rotation. */
export type PageSize = { width: number; height: number; rotation: number };
export type FieldDocument = { id: number; workflowId: number; pages: number; pageSizes: PageSize[] };

export async function findDocuments(db: DbOrTx, documentIds: number[]): Promise<FieldDocument[]> {
  if (documentIds.length === 0) return [];
  const rows = await db
    .select({
      id: documents.id,
      workflowId: documents.workflowId,
      pages: documents.pages,
      pageSizes: documents.pageSizes,
    })
    .from(documents)
    .where(inArray(documents.id, documentIds));
  return rows.map((row) => ({ ...row, pageSizes: row.pageSizes as PageSize[] }));
}

/** Creation order. */
export async function findFields(db: DbOrTx, workflowId: number): Promise<FieldRow[]> {
  return db.select().from(fields).where(eq(fields.workflowId, workflowId)).orderBy(asc(fields.id));
}

export async function findField(db: DbOrTx, workflowId: number, fieldId: number): Promise<FieldRow | null> {
  const [row] = await db
    .select()
    .from(fields)
    .where(and(eq(fields.id, fieldId), eq(fields.workflowId, workflowId)));
  return row ?? null;
}

export async function findFieldOfDocument(db: DbOrTx, documentId: number, fieldId: number): Promise<FieldRow | null> {
  const [row] = await db
    .select()
    .from(fields)
    .where(and(eq(fields.id, fieldId), eq(fields.documentId, documentId)));
  return row ?? null;
}

export async function insertFields(db: DbOrTx, values: FieldValues[]): Promise<FieldRow[]> {
  const rows: FieldRow[] = [];
  // Ids come from the sequence in the order of the rows of one insert: sorted by id, the rows are in request order.
  for (let start = 0; start < values.length; start += INSERT_CHUNK) {
    const inserted = await db
      .insert(fields)
      .values(values.slice(start, start + INSERT_CHUNK))
      .returning();
    rows.push(...inserted.sort((a, b) => a.id - b.id));
  }
  return rows;
}

export async function updateField(db: DbOrTx, fieldId: number, values: Partial<FieldValues>): Promise<FieldRow> {
  const [row] = await db.update(fields).set(values).where(eq(fields.id, fieldId)).returning();
  return row;
}

export async function deleteField(db: DbOrTx, workflowId: number, fieldId: number): Promise<void> {
  await db.delete(fields).where(and(eq(fields.id, fieldId), eq(fields.workflowId, workflowId)));
}

/** The ids among `recipientIds` that have at least one field. */
export async function findRecipientsWithFields(
  db: DbOrTx,
  workflowId: number,
  recipientIds: number[],
): Promise<Set<number>> {
  if (recipientIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ recipientId: fields.recipientId })
    .from(fields)
    .where(and(eq(fields.workflowId, workflowId), inArray(fields.recipientId, recipientIds)));
  return new Set(rows.map((row) => row.recipientId!));
}

export async function deleteFieldsOfRecipient(db: DbOrTx, workflowId: number, recipientId: number): Promise<void> {
  await db.delete(fields).where(and(eq(fields.workflowId, workflowId), eq(fields.recipientId, recipientId)));
}

/**
 * Copies the placement of a workflow's fields into another (templates): page, box, type, required, label, styling
 * and options, with documents and recipients renamed through the maps. Values, signature links and fill times are
 * not copied; a field whose document or (non-null) recipient has no counterpart is left out. Returns old → new id.
 */
export async function copyFieldRows(
  db: DbOrTx,
  fromWorkflowId: number,
  toWorkflowId: number,
  documentIds: Map<number, number>,
  recipientIds: Map<number, number>,
): Promise<Map<number, number>> {
  const sources = await db.select().from(fields).where(eq(fields.workflowId, fromWorkflowId)).orderBy(asc(fields.id));
  const ids = new Map<number, number>();
  for (const source of sources) {
    const documentId = documentIds.get(source.documentId);
    const recipientId = source.recipientId === null ? null : recipientIds.get(source.recipientId);
    if (documentId === undefined || recipientId === undefined) continue;
    const [row] = await db
      .insert(fields)
      .values(fieldCopy(source, { workflowId: toWorkflowId, documentId, recipientId }))
      .returning({ id: fields.id });
    ids.set(source.id, row.id);
  }
  return ids;
}

/** Multi-row inserts of at most this many rows (PostgreSQL takes at most 65,535 parameters per statement). */
const INSERT_CHUNK = 1000;

/** Inserts many fields in few statements (a copy of a layout, whose ids nobody waits for). */
export async function insertFieldRows(db: DbOrTx, values: FieldValues[]): Promise<void> {
  for (let start = 0; start < values.length; start += INSERT_CHUNK) {
    await db.insert(fields).values(values.slice(start, start + INSERT_CHUNK));
  }
}

/** Removes the fields placed on these documents (a DRAFT's documents being deleted). */
export async function deleteFieldsOfDocuments(db: DbOrTx, documentIds: number[]): Promise<void> {
  await db.delete(fields).where(inArray(fields.documentId, documentIds));
}

/** The row of a copy of `source` placed in another workflow, on its copy of the document, for `recipientId`. */
export function fieldCopy(
  source: FieldRow,
  target: { workflowId: number; documentId: number; recipientId: number | null },
): typeof fields.$inferInsert {
  return {
    ...target,
    pageNo: source.pageNo,
    box: source.box,
    fieldType: source.fieldType,
    fieldRequired: source.fieldRequired,
    label: source.label,
    styling: source.styling,
    options: source.options,
  };
}
