import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { documents, fields } from '../../platform/db/schema/index.ts';

export type DocumentRow = typeof documents.$inferSelect;
export type NewDocument = typeof documents.$inferInsert;

export async function findDocument(db: DbOrTx, documentId: number): Promise<DocumentRow | null> {
  const [row] = await db.select().from(documents).where(eq(documents.id, documentId));
  return row ?? null;
}

const documentsOfWorkflow = preparedStatement('documents_of_workflow', (db) =>
  db
    .select()
    .from(documents)
    .where(eq(documents.workflowId, sql.placeholder('workflowId')))
    .orderBy(asc(documents.position), asc(documents.id)),
);

/** A workflow's documents in their order (position, then id). */
export async function findDocumentsOfWorkflow(db: DbOrTx, workflowId: number): Promise<DocumentRow[]> {
  return documentsOfWorkflow(db).execute({ workflowId });
}

const documentOfWorkflow = preparedStatement('workflow_document', (db) =>
  db
    .select()
    .from(documents)
    .where(
      and(eq(documents.id, sql.placeholder('documentId')), eq(documents.workflowId, sql.placeholder('workflowId'))),
    ),
);

export async function findDocumentOfWorkflow(
  db: DbOrTx,
  workflowId: number,
  documentId: number,
): Promise<DocumentRow | null> {
  const [row] = await documentOfWorkflow(db).execute({ workflowId, documentId });
  return row ?? null;
}

/** The position after the workflow's last document (0 for the first). */
export async function nextDocumentPosition(db: DbOrTx, workflowId: number): Promise<number> {
  const [row] = await db
    .select({ next: sql<number>`coalesce(max(${documents.position}) + 1, 0)::int` })
    .from(documents)
    .where(eq(documents.workflowId, workflowId));
  return row.next;
}

export async function insertDocument(db: DbOrTx, values: NewDocument): Promise<DocumentRow> {
  const [row] = await db.insert(documents).values(values).returning();
  return row;
}

export async function updateDocument(
  db: DbOrTx,
  documentId: number,
  values: Partial<NewDocument>,
): Promise<DocumentRow> {
  const [row] = await db.update(documents).set(values).where(eq(documents.id, documentId)).returning();
  return row;
}

/** Records page 1's picture of the document's file, unless the file was replaced meanwhile or a picture is recorded. */
export async function setDocumentPicture(
  db: DbOrTx,
  documentId: number,
  fileKey: string,
  pictureKey: string,
): Promise<void> {
  await db
    .update(documents)
    .set({ pictureBlobKey: pictureKey })
    .where(and(eq(documents.id, documentId), eq(documents.blobKey, fileKey), isNull(documents.pictureBlobKey)));
}

export type PlacedField = { id: number; pageNo: number; box: { x: number; y: number; width: number; height: number } };

export async function findFieldsOfDocument(db: DbOrTx, documentId: number): Promise<PlacedField[]> {
  const rows = await db
    .select({ id: fields.id, pageNo: fields.pageNo, box: fields.box })
    .from(fields)
    .where(eq(fields.documentId, documentId))
    .orderBy(asc(fields.id));
  return rows.map((row) => ({ ...row, box: row.box as PlacedField['box'] }));
}

/**
 * Copies the documents of one workflow into another (templates: the snapshot and each workflow made from it), in
 * position order. Blobs are content-addressed, so the copies share the stored file; the sealed file and the
 * viewed flag are not copied. Returns the new id of each copied document.
 */
export async function copyDocumentRows(
  db: DbOrTx,
  fromWorkflowId: number,
  toWorkflowId: number,
): Promise<Map<number, number>> {
  const sources = await db
    .select()
    .from(documents)
    .where(eq(documents.workflowId, fromWorkflowId))
    .orderBy(asc(documents.position), asc(documents.id));
  const ids = new Map<number, number>();
  for (const source of sources) {
    const [row] = await db.insert(documents).values(documentCopy(source, toWorkflowId)).returning({ id: documents.id });
    ids.set(source.id, row.id);
  }
  return ids;
}

/** A workflow's documents in their position order (what a copy reproduces). */
export async function findDocumentsInPositionOrder(db: DbOrTx, workflowId: number): Promise<DocumentRow[]> {
  return db
    .select()
    .from(documents)
    .where(eq(documents.workflowId, workflowId))
    .orderBy(asc(documents.position), asc(documents.id));
}

/** Multi-row inserts of at most this many rows (PostgreSQL takes at most 65,535 parameters per statement). */
const INSERT_CHUNK = 1000;

/** Inserts many documents in few statements; the returned rows are in the order of `values`. */
export async function insertDocuments(db: DbOrTx, values: NewDocument[]): Promise<DocumentRow[]> {
  const rows: DocumentRow[] = [];
  for (let start = 0; start < values.length; start += INSERT_CHUNK) {
    rows.push(
      ...(await db
        .insert(documents)
        .values(values.slice(start, start + INSERT_CHUNK))
        .returning()),
    );
  }
  return rows;
}

/** The row of a copy of `source` in another workflow: the same file (blob), name, place and pictures. */
export function documentCopy(source: DocumentRow, workflowId: number): typeof documents.$inferInsert {
  return {
    workflowId,
    name: source.name,
    position: source.position,
    blobKey: source.blobKey,
    size: source.size,
    pages: source.pages,
    pageSizes: source.pageSizes,
    thumbnailBase64: source.thumbnailBase64,
    pictureBlobKey: source.pictureBlobKey,
  };
}
