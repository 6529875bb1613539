import { and, asc, count, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { folders, workflows } from '../../platform/db/schema/index.ts';
import { likeContains } from '../workflows/workflow-ids.ts';

export type FolderRow = typeof folders.$inferSelect;
export type FolderWithCount = FolderRow & { documentsCount: number };

/**
 * Workflows a folder holds, as the document list shows them (not deleted, not Power Survey children); for a business
 * app's token (`organizationId`) those of its organization only, as its document list shows them.
 */
// Written out in SQL: Drizzle would render the columns unqualified, and inside the subquery "id" would bind to workflows.
function documentsCount(organizationId: number | null) {
  return sql<number>`(select count(*)::int from workflows w
  where w.folder_id = "folders"."id" and w.deleted_at is null and w.parent_workflow_id is null${organizationId === null ? sql`` : sql` and w.organization_id = ${organizationId}`})`;
}

function ownedMatching(userId: number, search: string | undefined): SQL | undefined {
  return and(eq(folders.userId, userId), search ? ilike(folders.name, likeContains(search)) : undefined);
}

/** The user's folders by name (case-insensitive), then id. */
export async function findFolders(
  db: DbOrTx,
  userId: number,
  options: { search?: string; limit?: number; offset?: number; organizationId?: number | null } = {},
): Promise<FolderWithCount[]> {
  const query = db
    .select({ folder: folders, documentsCount: documentsCount(options.organizationId ?? null) })
    .from(folders)
    .where(ownedMatching(userId, options.search))
    .orderBy(asc(sql`lower(${folders.name})`), asc(folders.id));
  const rows = options.limit === undefined ? await query : await query.limit(options.limit).offset(options.offset ?? 0);
  return rows.map((r) => ({ ...r.folder, documentsCount: r.documentsCount }));
}

export async function countFolders(db: DbOrTx, userId: number, search: string | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(folders).where(ownedMatching(userId, search));
  return row.n;
}

export async function findFolder(
  db: DbOrTx,
  userId: number,
  folderId: number,
  options: { lock?: boolean } = {},
): Promise<FolderRow | null> {
  const query = db
    .select()
    .from(folders)
    .where(and(eq(folders.id, folderId), eq(folders.userId, userId)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function findFolderWithCount(
  db: DbOrTx,
  folderId: number,
  organizationId: number | null = null,
): Promise<FolderWithCount> {
  const [row] = await db
    .select({ folder: folders, documentsCount: documentsCount(organizationId) })
    .from(folders)
    .where(eq(folders.id, folderId));
  return { ...row.folder, documentsCount: row.documentsCount };
}

/** Another folder of the user with the same name, compared case-insensitively. */
export async function findFolderByName(db: DbOrTx, userId: number, name: string): Promise<FolderRow | null> {
  const [row] = await db
    .select()
    .from(folders)
    .where(and(eq(folders.userId, userId), eq(sql`lower(${folders.name})`, name.toLowerCase())));
  return row ?? null;
}

export async function insertFolder(db: DbOrTx, userId: number, name: string): Promise<FolderRow> {
  const [row] = await db.insert(folders).values({ userId, name }).returning();
  return row;
}

export async function renameFolder(db: DbOrTx, folderId: number, name: string): Promise<void> {
  await db.update(folders).set({ name }).where(eq(folders.id, folderId));
}

export async function deleteFolder(db: DbOrTx, folderId: number): Promise<void> {
  await db.delete(folders).where(eq(folders.id, folderId));
}

/**
 * The ids among `ids` that the user may file: own, not deleted, not Power Survey children, and (for a business app's
 * token, `organizationId`) of the app's organization; locked.
 */
export async function lockFileableWorkflows(
  db: DbOrTx,
  userId: number,
  ids: number[],
  organizationId: number | null = null,
): Promise<number[]> {
  const rows = await db
    .select({ id: workflows.id })
    .from(workflows)
    .where(
      and(
        inArray(workflows.id, ids),
        eq(workflows.ownerUserId, userId),
        isNull(workflows.deletedAt),
        isNull(workflows.parentWorkflowId),
        organizationId === null ? undefined : eq(workflows.organizationId, organizationId),
      ),
    )
    .orderBy(asc(workflows.id))
    .for('update');
  return rows.map((r) => r.id);
}
