import { and, asc, count, eq, ilike, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { intArray, preparedShapes, preparedStatement } from '../../platform/db/prepared.ts';
import {
  documents,
  fields,
  recipients,
  templateInstanceFields,
  templates,
  workflows,
} from '../../platform/db/schema/index.ts';
import { likeContains } from '../workflows/workflow-ids.ts';

export type TemplateRow = typeof templates.$inferSelect;
export type TemplateValues = typeof templates.$inferInsert;

export type TemplateFilter = { folderId?: number | null; search?: string };

// The list's statements run on every page and every picker: prepared once per shape of the filter
// (src/platform/db/prepared.ts), the hidden folders as one array value so the text never depends on their count.
type FilterShape = `${'hidden' | 'all'}:${'any' | 'root' | 'folder'}:${'search' | 'plain'}`;
const shapeOf = (hidden: number[], filter: TemplateFilter): FilterShape =>
  `${hidden.length > 0 ? 'hidden' : 'all'}:${filter.folderId === undefined ? 'any' : filter.folderId === null ? 'root' : 'folder'}:${filter.search ? 'search' : 'plain'}`;
/** Live templates of the organization outside the hidden folders, optionally in one folder and matching a search. */
function visible(shape: FilterShape): SQL {
  const [hidden, folder, search] = shape.split(':');
  return and(
    eq(templates.organizationId, sql.placeholder('organizationId')),
    isNull(templates.deletedAt),
    hidden === 'hidden'
      ? sql`(${templates.folderId} is null or not (${templates.folderId} = any(${sql.placeholder('hidden')}::int[])))`
      : undefined,
    folder === 'root'
      ? isNull(templates.folderId)
      : folder === 'folder'
        ? eq(templates.folderId, sql.placeholder('folderId'))
        : undefined,
    search === 'search' ? ilike(templates.name, sql.placeholder('search')) : undefined,
  )!;
}
const filterValues = (organizationId: number, hidden: number[], filter: TemplateFilter) => ({
  organizationId,
  hidden: intArray(hidden),
  folderId: filter.folderId ?? undefined,
  search: filter.search ? likeContains(filter.search) : undefined,
});

/** Newest first, with the total as a window count: one statement per page (the count runs alone only past the end). */
const templatePage = preparedShapes('templates_page', (db, shape: FilterShape) =>
  db
    .select({ template: templates, total: sql<number>`count(*) over()`.mapWith(Number) })
    .from(templates)
    .where(visible(shape))
    .orderBy(sql`${templates.id} desc`)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset')),
);
const templateNames = preparedShapes('templates_names', (db, shape: FilterShape) =>
  db
    .select({ id: templates.id, name: templates.name })
    .from(templates)
    .where(visible(shape))
    .orderBy(asc(sql`lower(${templates.name})`), asc(templates.id)),
);
const templateCount = preparedShapes('templates_count', (db, shape: FilterShape) =>
  db.select({ n: count() }).from(templates).where(visible(shape)),
);

export async function findTemplatePage(
  db: DbOrTx,
  organizationId: number,
  hidden: number[],
  filter: TemplateFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: TemplateRow[]; total: number }> {
  const shape = shapeOf(hidden, filter);
  const values = filterValues(organizationId, hidden, filter);
  const found = await templatePage(db, shape).execute({ ...values, ...page });
  const total =
    found.length > 0 ? found[0].total : page.offset === 0 ? 0 : (await templateCount(db, shape).execute(values))[0].n;
  return { rows: found.map((row) => row.template), total };
}

export async function findTemplateNames(
  db: DbOrTx,
  organizationId: number,
  hidden: number[],
  filter: TemplateFilter,
): Promise<{ id: number; name: string }[]> {
  return templateNames(db, shapeOf(hidden, filter)).execute(filterValues(organizationId, hidden, filter));
}

const liveTemplate = and(
  eq(templates.id, sql.placeholder('templateId')),
  eq(templates.organizationId, sql.placeholder('organizationId')),
  isNull(templates.deletedAt),
);
const templateById = preparedStatement('template_by_id', (db) => db.select().from(templates).where(liveTemplate));
const templateByIdLocked = preparedStatement('template_by_id_locked', (db) =>
  db.select().from(templates).where(liveTemplate).for('update'),
);

/** A live template of the organization (folder access is the service's check). */
export async function findTemplate(
  db: DbOrTx,
  organizationId: number,
  templateId: number,
  options: { lock?: boolean } = {},
): Promise<TemplateRow | null> {
  const [row] = await (options.lock ? templateByIdLocked : templateById)(db).execute({ templateId, organizationId });
  return row ?? null;
}

/** Another live template with this name (ignoring case) in the same folder. */
export async function findTemplateByName(
  db: DbOrTx,
  organizationId: number,
  folderId: number | null,
  name: string,
  exceptId?: number,
): Promise<TemplateRow | null> {
  const [row] = await db
    .select()
    .from(templates)
    .where(
      and(
        eq(templates.organizationId, organizationId),
        isNull(templates.deletedAt),
        folderId === null ? isNull(templates.folderId) : eq(templates.folderId, folderId),
        eq(sql`lower(${templates.name})`, name.toLowerCase()),
        exceptId === undefined ? undefined : ne(templates.id, exceptId),
      ),
    );
  return row ?? null;
}

export async function insertTemplate(db: DbOrTx, values: TemplateValues): Promise<TemplateRow> {
  const [row] = await db.insert(templates).values(values).returning();
  return row;
}

export async function updateTemplate(
  db: DbOrTx,
  templateId: number,
  values: Partial<TemplateValues>,
): Promise<TemplateRow> {
  const [row] = await db
    .update(templates)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(templates.id, templateId))
    .returning();
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
  return db
    .select()
    .from(recipients)
    .where(
      and(eq(recipients.workflowId, workflowId), eq(recipients.isHidden, false), ne(recipients.status, 'DELEGATED')),
    )
    .orderBy(sql`${recipients.recipientOrder} asc nulls last`, asc(recipients.id));
}

export async function countDocumentsOf(db: DbOrTx, workflowId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(documents).where(eq(documents.workflowId, workflowId));
  return row.n;
}

/** The first document of a snapshot (by position): the template's source document. */
export async function findFirstDocument(db: DbOrTx, workflowId: number): Promise<typeof documents.$inferSelect | null> {
  const [row] = await db
    .select()
    .from(documents)
    .where(eq(documents.workflowId, workflowId))
    .orderBy(asc(documents.position), asc(documents.id))
    .limit(1);
  return row ?? null;
}

export type SnapshotField = {
  id: number;
  fieldType: string;
  pageNo: number;
  label: string | null;
  documentPosition: number;
};

/** The fields of a snapshot in document, page and creation order. */
export async function findSnapshotFields(db: DbOrTx, workflowId: number): Promise<SnapshotField[]> {
  return db
    .select({
      id: fields.id,
      fieldType: fields.fieldType,
      pageNo: fields.pageNo,
      label: fields.label,
      documentPosition: documents.position,
    })
    .from(fields)
    .innerJoin(documents, eq(documents.id, fields.documentId))
    .where(eq(fields.workflowId, workflowId))
    .orderBy(asc(documents.position), asc(documents.id), asc(fields.pageNo), asc(fields.id));
}

export async function insertInstanceFields(
  db: DbOrTx,
  rows: { fieldId: number; templateId: number; placeholderKey: string }[],
): Promise<void> {
  if (rows.length > 0) await db.insert(templateInstanceFields).values(rows);
}
