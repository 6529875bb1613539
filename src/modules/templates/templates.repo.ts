import { and, asc, count, eq, ilike, inArray, isNull, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { documents, fields, recipients, templateInstanceFields, templates, workflows } from '../../platform/db/schema/index.ts';
import { likeContains } from '../workflows/workflow-ids.ts';

export type TemplateRow = typeof templates.$inferSelect;
export type TemplateValues = typeof templates.$inferInsert;

/** Live templates of the organization outside the hidden folders, optionally in one folder and matching a search. */
function visible(organizationId: number, hidden: number[], filter: { folderId?: number | null; search?: string }): SQL {
  return and(
    eq(templates.organizationId, organizationId), isNull(templates.deletedAt),
    hidden.length > 0 ? or(isNull(templates.folderId), notInArray(templates.folderId, hidden)) : undefined,
    filter.folderId === undefined ? undefined : filter.folderId === null ? isNull(templates.folderId) : eq(templates.folderId, filter.folderId),
    filter.search ? ilike(templates.name, likeContains(filter.search)) : undefined,
  )!;
}

export type TemplateFilter = { folderId?: number | null; search?: string };

/** Newest first. */
export async function findTemplates(db: DbOrTx, organizationId: number, hidden: number[], filter: TemplateFilter, page?: { limit: number; offset: number }): Promise<TemplateRow[]> {
  const query = db.select().from(templates).where(visible(organizationId, hidden, filter)).orderBy(sql`${templates.id} desc`);
  return page ? query.limit(page.limit).offset(page.offset) : query;
}

export async function findTemplateNames(db: DbOrTx, organizationId: number, hidden: number[], filter: TemplateFilter): Promise<{ id: number; name: string }[]> {
  return db.select({ id: templates.id, name: templates.name }).from(templates).where(visible(organizationId, hidden, filter)).orderBy(asc(sql`lower(${templates.name})`), asc(templates.id));
}

export async function countTemplates(db: DbOrTx, organizationId: number, hidden: number[], filter: TemplateFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(templates).where(visible(organizationId, hidden, filter));
  return row.n;
}

/** A live template of the organization (folder access is the service's check). */
export async function findTemplate(db: DbOrTx, organizationId: number, templateId: number, options: { lock?: boolean } = {}): Promise<TemplateRow | null> {
  const query = db.select().from(templates).where(and(eq(templates.id, templateId), eq(templates.organizationId, organizationId), isNull(templates.deletedAt)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

/** Another live template with this name (ignoring case) in the same folder. */
export async function findTemplateByName(db: DbOrTx, organizationId: number, folderId: number | null, name: string, exceptId?: number): Promise<TemplateRow | null> {
  const [row] = await db.select().from(templates).where(and(
    eq(templates.organizationId, organizationId), isNull(templates.deletedAt),
    folderId === null ? isNull(templates.folderId) : eq(templates.folderId, folderId),
    eq(sql`lower(${templates.name})`, name.toLowerCase()),
    exceptId === undefined ? undefined : ne(templates.id, exceptId),
  ));
  return row ?? null;
}

export async function insertTemplate(db: DbOrTx, values: TemplateValues): Promise<TemplateRow> {
  const [row] = await db.insert(templates).values(values).returning();
  return row;
}

export async function updateTemplate(db: DbOrTx, templateId: number, values: Partial<TemplateValues>): Promise<TemplateRow> {
  const [row] = await db.update(templates).set({ ...values, updatedAt: new Date() }).where(eq(templates.id, templateId)).returning();
  return row;
}

export async function softDeleteTemplates(db: DbOrTx, templateIds: number[]): Promise<void> {
  await db.update(templates).set({ deletedAt: new Date() }).where(inArray(templates.id, templateIds));
}

// ---------------------------------------------------------------------------------------------------------
// Reads of workflows (snapshots are made and read through them; writes go through their modules)

export type SnapshotWorkflow = typeof workflows.$inferSelect;
export type SlotRow = typeof recipients.$inferSelect;

export async function findWorkflowRow(db: DbOrTx, workflowId: number): Promise<SnapshotWorkflow | null> {
  const [row] = await db.select().from(workflows).where(eq(workflows.id, workflowId));
  return row ?? null;
}

/**
 * The rows of a workflow that become (or are) a template's recipient slots, in signing order: hidden assistant
 * rows and rows delegated away are left out (the delegate's row took their place).
 */
export async function findSlotRows(db: DbOrTx, workflowId: number): Promise<SlotRow[]> {
  return db.select().from(recipients)
    .where(and(eq(recipients.workflowId, workflowId), eq(recipients.isHidden, false), ne(recipients.status, 'DELEGATED')))
    .orderBy(sql`${recipients.recipientOrder} asc nulls last`, asc(recipients.id));
}

export async function countDocumentsOf(db: DbOrTx, workflowId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(documents).where(eq(documents.workflowId, workflowId));
  return row.n;
}

/** The first document of a snapshot (by position): the template's source document. */
export async function findFirstDocument(db: DbOrTx, workflowId: number): Promise<typeof documents.$inferSelect | null> {
  const [row] = await db.select().from(documents).where(eq(documents.workflowId, workflowId)).orderBy(asc(documents.position), asc(documents.id)).limit(1);
  return row ?? null;
}

export type SnapshotField = { id: number; fieldType: string; pageNo: number; label: string | null; documentPosition: number };

/** The fields of a snapshot in document, page and creation order. */
export async function findSnapshotFields(db: DbOrTx, workflowId: number): Promise<SnapshotField[]> {
  return db.select({ id: fields.id, fieldType: fields.fieldType, pageNo: fields.pageNo, label: fields.label, documentPosition: documents.position })
    .from(fields).innerJoin(documents, eq(documents.id, fields.documentId))
    .where(eq(fields.workflowId, workflowId))
    .orderBy(asc(documents.position), asc(documents.id), asc(fields.pageNo), asc(fields.id));
}

export async function insertInstanceFields(db: DbOrTx, rows: { fieldId: number; templateId: number; placeholderKey: string }[]): Promise<void> {
  if (rows.length > 0) await db.insert(templateInstanceFields).values(rows);
}
