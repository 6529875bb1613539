import { and, asc, count, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { roles, templateFolders, templates } from '../../platform/db/schema/index.ts';

export type TemplateFolderRow = typeof templateFolders.$inferSelect;

/** Every folder of the organization (bounded by MAX_FOLDERS_PER_ORGANIZATION), by name then id. */
export async function findFoldersOfOrganization(db: DbOrTx, organizationId: number): Promise<TemplateFolderRow[]> {
  return db
    .select()
    .from(templateFolders)
    .where(eq(templateFolders.organizationId, organizationId))
    .orderBy(asc(templateFolders.name), asc(templateFolders.id));
}

export async function findTemplateFolder(
  db: DbOrTx,
  organizationId: number,
  folderId: number,
  options: { lock?: boolean } = {},
): Promise<TemplateFolderRow | null> {
  const query = db
    .select()
    .from(templateFolders)
    .where(and(eq(templateFolders.id, folderId), eq(templateFolders.organizationId, organizationId)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function countFoldersOfOrganization(db: DbOrTx, organizationId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(templateFolders)
    .where(eq(templateFolders.organizationId, organizationId));
  return row.n;
}

export async function insertTemplateFolder(
  db: DbOrTx,
  values: { organizationId: number; name: string; parentFolderId: number | null },
): Promise<TemplateFolderRow> {
  const [row] = await db.insert(templateFolders).values(values).returning();
  return row;
}

export async function updateTemplateFolder(
  db: DbOrTx,
  folderId: number,
  values: Partial<Pick<TemplateFolderRow, 'name' | 'roleIds' | 'overrideEnabled'>>,
): Promise<TemplateFolderRow> {
  const [row] = await db.update(templateFolders).set(values).where(eq(templateFolders.id, folderId)).returning();
  return row;
}

/** Folders among `folderIds` that hold a live template, or a folder outside `folderIds`. */
export async function findNonEmptyFolders(db: DbOrTx, folderIds: number[]): Promise<number[]> {
  const withTemplates = await db
    .selectDistinct({ id: templates.folderId })
    .from(templates)
    .where(and(inArray(templates.folderId, folderIds), isNull(templates.deletedAt)));
  const children = await db
    .select({ id: templateFolders.parentFolderId, child: templateFolders.id })
    .from(templateFolders)
    .where(inArray(templateFolders.parentFolderId, folderIds));
  const ids = new Set<number>(withTemplates.map((r) => r.id!));
  for (const row of children) if (!folderIds.includes(row.child)) ids.add(row.id!);
  return [...ids];
}

/** Deleted templates keep their rows; they leave a folder that is deleted so its key does not hold the folder. */
export async function unfileDeletedTemplates(db: DbOrTx, folderIds: number[]): Promise<void> {
  await db.update(templates).set({ folderId: null }).where(inArray(templates.folderId, folderIds));
}

export async function deleteTemplateFolder(db: DbOrTx, folderId: number): Promise<void> {
  await db.delete(templateFolders).where(eq(templateFolders.id, folderId));
}

/** The ids among `roleIds` that are roles of the organization. */
export async function findRolesOfOrganization(
  db: DbOrTx,
  organizationId: number,
  roleIds: number[],
): Promise<number[]> {
  if (roleIds.length === 0) return [];
  const rows = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.organizationId, organizationId), inArray(roles.id, roleIds)));
  return rows.map((r) => r.id);
}
