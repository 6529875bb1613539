import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { parseIdList, requireText } from '../workflows/workflow-ids.ts';
import { findWorkflowForCaller, isAppCaller } from '../workflows/workflow-access.ts';
import { fileWorkflows, unfileFolder } from '../workflows/workflow-core.ts';
import {
  countFolders,
  deleteFolder,
  findFolder,
  findFolderByName,
  findFolderWithCount,
  findFolders,
  insertFolder,
  lockFileableWorkflows,
  renameFolder,
  type FolderRow,
  type FolderWithCount,
} from './folders.repo.ts';
import type { FoldersPageQuery } from './folders.schemas.ts';

function isUniqueViolation(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown })?.cause];
  return candidates.some((e) => (e as { code?: string } | undefined)?.code === '23505');
}

/**
 * Personal folders (SPEC.md): each user files their own workflows; nobody else's folders or workflows are
 * reachable (404). Names are unique per user ignoring case (409), enforced by a unique index as well.
 */
export function createFolderService({ db }: { db: Db }) {
  return { listAll, listPage, create, rename, moveWorkflows, remove };

  async function getFolder(tx: DbOrTx, caller: UserCaller, folderId: number, lock = false): Promise<FolderRow> {
    const folder = await findFolder(tx, caller.userId, folderId, { lock });
    if (!folder) throw new AppError('NOT_FOUND', 'Folder not found');
    return folder;
  }

  async function listAll(caller: UserCaller): Promise<FolderWithCount[]> {
    return findFolders(db, caller.userId, { organizationId: reachOf(caller) });
  }

  async function listPage(caller: UserCaller, query: FoldersPageQuery) {
    const search = query.searchValue?.trim() || undefined;
    const [rows, total] = await Promise.all([
      findFolders(db, caller.userId, {
        search,
        limit: query.size,
        offset: query.page * query.size,
        organizationId: reachOf(caller),
      }),
      countFolders(db, caller.userId, search),
    ]);
    return { rows, total, totalPages: Math.ceil(total / query.size), number: query.page, size: query.size };
  }

  async function assertNameFree(tx: DbOrTx, caller: UserCaller, name: string, exceptFolderId?: number): Promise<void> {
    const clash = await findFolderByName(tx, caller.userId, name);
    if (clash && clash.id !== exceptFolderId)
      throw new AppError('CONFLICT', `You already have a folder named "${clash.name}"`);
  }

  /** Concurrent creates with one name race past the pre-check; the unique index turns the loser into 409. */
  async function withNameConflict<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'You already have a folder with this name');
      throw error;
    }
  }

  async function create(caller: UserCaller, rawName: string): Promise<FolderWithCount> {
    const name = requireText(rawName, 'folderName');
    return withNameConflict(() =>
      db.transaction(async (tx) => {
        await assertNameFree(tx, caller, name);
        const folder = await insertFolder(tx, caller.userId, name);
        return { ...folder, documentsCount: 0 };
      }),
    );
  }

  async function rename(caller: UserCaller, folderId: number, rawName: string): Promise<FolderWithCount> {
    const name = requireText(rawName, 'folderName');
    return withNameConflict(() =>
      db.transaction(async (tx) => {
        await getFolder(tx, caller, folderId, true);
        await assertNameFree(tx, caller, name, folderId);
        await renameFolder(tx, folderId, name);
        return findFolderWithCount(tx, folderId, reachOf(caller));
      }),
    );
  }

  /** All or nothing: one id that is not the caller's listed workflow (or does not exist) is 404 and nothing moves. */
  async function moveWorkflows(caller: UserCaller, folderId: number, idList: string): Promise<FolderWithCount> {
    const ids = parseIdList(idList);
    return db.transaction(async (tx) => {
      await getFolder(tx, caller, folderId, true);
      const found = await lockFileableWorkflows(tx, caller.userId, ids, reachOf(caller));
      const missing = ids.filter((id) => !found.includes(id));
      if (missing.length > 0) await refuseUnfileable(tx, caller, missing);
      await fileWorkflows(tx, ids, folderId);
      return findFolderWithCount(tx, folderId, reachOf(caller));
    });
  }

  /**
   * Filing sets the workflow's own folder, so only its owner files it: a workflow the caller sees as a participant is
   * SPEC.md's INVALID_WORKFLOW_OWNER (RUNTIME.md "Who may do what"), any other 404.
   */
  async function refuseUnfileable(tx: DbOrTx, caller: UserCaller, ids: number[]): Promise<never> {
    for (const id of ids) {
      const seenNotOwned = await findWorkflowForCaller(tx, caller, id).then(
        (access) => !access.isOwner,
        (error: unknown) => {
          if (error instanceof AppError) return false;
          throw error;
        },
      );
      if (seenNotOwned)
        throw new AppError('INVALID_WORKFLOW_OWNER', `Workflow ${id} is not yours to file: only its owner files it`);
    }
    throw new AppError('NOT_FOUND', `Workflow ${ids.join(', ')} not found`);
  }

  /** The folder goes; the workflows it held stay, unfiled. */
  async function remove(caller: UserCaller, folderId: number): Promise<void> {
    await db.transaction(async (tx) => {
      await getFolder(tx, caller, folderId, true);
      await unfileFolder(tx, folderId);
      await deleteFolder(tx, folderId);
    });
  }
}

export type FolderService = ReturnType<typeof createFolderService>;

/** For the documents module: the caller's own folder, or null (another user's folder is as absent as a missing one). */
export async function findOwnFolder(
  db: DbOrTx,
  userId: number,
  folderId: number,
  options: { lock?: boolean } = {},
): Promise<{ id: number } | null> {
  return findFolder(db, userId, folderId, options);
}

/** A business app's token files and counts only its organization's workflows (workflow-access.ts isWithinReach); anyone else: null. */
function reachOf(caller: UserCaller): number | null {
  return isAppCaller(caller) ? caller.organizationId : null;
}
