import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { requireText } from '../workflows/workflow-ids.ts';
import { withNameConflict } from './name-conflict.ts';
import { admittedRoleIds, folderDepth, hiddenFolderIds } from './folder-access.ts';
import {
  countFoldersOfOrganization,
  deleteTemplateFolder,
  findFoldersOfOrganization,
  findNonEmptyFolders,
  findRolesOfOrganization,
  findTemplateFolder,
  insertTemplateFolder,
  unfileDeletedTemplates,
  updateTemplateFolder,
  type TemplateFolderRow,
} from './template-folders.repo.ts';
import {
  MAX_FOLDER_DEPTH,
  MAX_FOLDERS_PER_ORGANIZATION,
  toFolderResponse,
  type CreateFolderBody,
  type FolderAccessBody,
  type FolderTreeNode,
} from './template-folders.schemas.ts';

/** The folders of the caller's organization the caller may not see (folder access), for every template read. */
export async function hiddenFoldersFor(db: DbOrTx, caller: UserCaller): Promise<Set<number>> {
  if (caller.membership.isOwner) return new Set();
  return hiddenFolderIds(await findFoldersOfOrganization(db, caller.organizationId), caller.membership);
}

/** A folder of the caller's organization that the caller may see, or 404 TEMPLATE_FOLDER_NOT_FOUND. */
export async function getVisibleFolder(
  db: DbOrTx,
  caller: UserCaller,
  folderId: number,
  options: { lock?: boolean } = {},
): Promise<TemplateFolderRow> {
  const folder = await findTemplateFolder(db, caller.organizationId, folderId, options);
  if (!folder || (await hiddenFoldersFor(db, caller)).has(folder.id))
    throw new AppError('TEMPLATE_FOLDER_NOT_FOUND', `Template folder ${folderId} does not exist`);
  return folder;
}

const nameConflict = <T>(work: () => Promise<T>) =>
  withNameConflict('TEMPLATE_FOLDER_EXISTS', 'A folder with this name already exists here', work);

/**
 * Template folders (SPEC.md "Template folders"): a tree per organization. Who may call what is the route's
 * TEMPLATES right (access: the owner); which folders a member sees is folder access (folder-access.ts).
 */
export function createTemplateFolderService({ db }: { db: Db }) {
  return { children, tree, create, rename, remove, getAccess, putAccess };

  async function visibleFolders(caller: UserCaller): Promise<TemplateFolderRow[]> {
    const all = await findFoldersOfOrganization(db, caller.organizationId);
    const hidden = caller.membership.isOwner ? new Set<number>() : hiddenFolderIds(all, caller.membership);
    return all.filter((folder) => !hidden.has(folder.id));
  }

  async function children(caller: UserCaller, parentFolderId: number | undefined): Promise<TemplateFolderRow[]> {
    if (parentFolderId !== undefined) await getVisibleFolder(db, caller, parentFolderId);
    return (await visibleFolders(caller)).filter((folder) => folder.parentFolderId === (parentFolderId ?? null));
  }

  async function tree(caller: UserCaller): Promise<FolderTreeNode[]> {
    const folders = await visibleFolders(caller);
    const nodes = new Map<number, FolderTreeNode>(
      folders.map((folder) => [folder.id, { ...toFolderResponse(folder), children: [] }]),
    );
    const roots: FolderTreeNode[] = [];
    for (const folder of folders) {
      const node = nodes.get(folder.id)!;
      const parent = folder.parentFolderId === null ? undefined : nodes.get(folder.parentFolderId);
      (parent ? parent.children : roots).push(node);
    }
    return roots;
  }

  async function create(caller: UserCaller, body: CreateFolderBody): Promise<TemplateFolderRow> {
    const name = requireText(body.name, 'name');
    const parentFolderId = body.parentFolderId ?? null;
    return nameConflict(() =>
      db.transaction(async (tx) => {
        if (parentFolderId !== null) await getVisibleFolder(tx, caller, parentFolderId, { lock: true });
        if ((await countFoldersOfOrganization(tx, caller.organizationId)) >= MAX_FOLDERS_PER_ORGANIZATION) {
          throw new AppError(
            'TEMPLATE_FOLDER_LIMIT',
            `An organization may keep at most ${MAX_FOLDERS_PER_ORGANIZATION} template folders`,
          );
        }
        if (
          parentFolderId !== null &&
          folderDepth(await findFoldersOfOrganization(tx, caller.organizationId), parentFolderId) >= MAX_FOLDER_DEPTH
        ) {
          throw new AppError('TEMPLATE_FOLDER_LIMIT', `Template folders nest at most ${MAX_FOLDER_DEPTH} deep`);
        }
        return insertTemplateFolder(tx, { organizationId: caller.organizationId, name, parentFolderId });
      }),
    );
  }

  async function rename(caller: UserCaller, folderId: number, rawName: string): Promise<TemplateFolderRow> {
    const name = requireText(rawName, 'name');
    return nameConflict(() =>
      db.transaction(async (tx) => {
        await getVisibleFolder(tx, caller, folderId, { lock: true });
        return updateTemplateFolder(tx, folderId, { name });
      }),
    );
  }

  /**
   * All or nothing: every id must be a folder the caller sees (404), and each must be empty (400
   * TEMPLATE_FOLDER_NOT_EMPTY) apart from folders deleted in the same call, which go deepest first.
   */
  async function remove(caller: UserCaller, rawIds: number[]): Promise<void> {
    const ids = [...new Set(rawIds)];
    await db.transaction(async (tx) => {
      for (const id of [...ids].sort((a, b) => a - b)) await getVisibleFolder(tx, caller, id, { lock: true });
      const nonEmpty = await findNonEmptyFolders(tx, ids);
      if (nonEmpty.length > 0)
        throw new AppError(
          'TEMPLATE_FOLDER_NOT_EMPTY',
          `Template folder ${nonEmpty.join(', ')} still holds templates or folders`,
          { folderIds: nonEmpty },
        );
      const all = await findFoldersOfOrganization(tx, caller.organizationId);
      const deepestFirst = [...ids].sort((a, b) => folderDepth(all, b) - folderDepth(all, a));
      await unfileDeletedTemplates(tx, ids);
      for (const id of deepestFirst) await deleteTemplateFolder(tx, id);
    });
  }

  async function getAccess(caller: UserCaller, folderId: number) {
    const folder = await getVisibleFolder(db, caller, folderId);
    return { roleIds: admittedRoleIds(folder.roleIds), overrideEnabled: folder.overrideEnabled };
  }

  async function putAccess(caller: UserCaller, folderId: number, body: FolderAccessBody) {
    const roleIds = [...new Set(body.roleIds)].sort((a, b) => a - b);
    return db.transaction(async (tx) => {
      await getVisibleFolder(tx, caller, folderId, { lock: true });
      const known = await findRolesOfOrganization(tx, caller.organizationId, roleIds);
      const unknown = roleIds.filter((id) => !known.includes(id));
      if (unknown.length > 0)
        throw new AppError(
          'TEMPLATE_FOLDER_ACCESS_INVALID',
          `Role ${unknown.join(', ')} is not a role of this organization`,
          { unknownRoleIds: unknown },
        );
      const folder = await updateTemplateFolder(tx, folderId, { roleIds, overrideEnabled: body.overrideEnabled });
      return { roleIds: admittedRoleIds(folder.roleIds), overrideEnabled: folder.overrideEnabled };
    });
  }
}

export type TemplateFolderService = ReturnType<typeof createTemplateFolderService>;
