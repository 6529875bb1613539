import { AppError } from '../../errors.ts';
import { pageOffset, toNumberedPage } from '../../http/schemas.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Db, DbOrTx, Tx } from '../../platform/db/client.ts';
import type { NotifiedCache } from '../../platform/db/notified-cache.ts';
import type { BlobStore } from '../../platform/storage/blob-store.ts';
import { assertMayUseTemplates } from '../billing/entitlements.service.ts';
import type { RoutingDeps } from '../signing/routing.ts';
import { findWorkflowForCaller, assertOwner, type WorkflowRow } from '../workflows/workflow-access.ts';
import { requireText } from '../workflows/workflow-ids.ts';
import { withNameConflict } from './name-conflict.ts';
import { getVisibleFolder, hiddenFoldersFor } from './template-folders.service.ts';
import {
  findSlots,
  instantiate,
  prepareInstantiation,
  takeSnapshot,
  type Instantiation,
} from './template-instances.ts';
import {
  countDocumentsOf,
  findFirstDocument,
  findTemplate,
  findTemplateByName,
  findTemplateNames,
  findTemplatePage,
  findWorkflowRow,
  insertTemplate,
  softDeleteTemplates,
  updateTemplate,
  type TemplateFilter,
  type TemplateRow,
} from './templates.repo.ts';
import {
  TEMPLATE_NAME_MAX,
  toTemplateResponse,
  type CreateTemplateBody,
  type TemplatesPageQuery,
  type UpdateTemplateBody,
} from './templates.schemas.ts';

/** `lists` keeps the list pages and names per organization until a template or folder of it changes (migration 0024). */
export type TemplateServiceDeps = { db: Db; blobs: BlobStore; routing: RoutingDeps; lists: NotifiedCache };

/**
 * A live template of the caller's organization that folder access lets the caller see; anything else is 404,
 * so another organization's ids and hidden folders' templates look alike. Used by analytics too.
 */
export async function getVisibleTemplate(
  db: DbOrTx,
  caller: UserCaller,
  templateId: number,
  options: { lock?: boolean } = {},
): Promise<TemplateRow> {
  const template = await findTemplate(db, caller.organizationId, templateId, options);
  if (!template || (template.folderId !== null && (await hiddenFoldersFor(db, caller)).has(template.folderId))) {
    throw new AppError('NOT_FOUND', `Template ${templateId} not found`);
  }
  return template;
}

/**
 * getVisibleTemplate for a read outside any transaction, kept per organization and viewer until a template or folder
 * of the organization changes: the one-template read and every analytics request start with it. A refusal (404) is
 * not kept, so it is read again every time.
 */
export function readVisibleTemplate(
  lists: NotifiedCache,
  db: Db,
  caller: UserCaller,
  templateId: number,
): Promise<TemplateRow> {
  return lists.read(caller.organizationId, JSON.stringify(['template', viewerOf(caller), templateId]), () =>
    getVisibleTemplate(db, caller, templateId),
  );
}

const nameConflict = <T>(work: () => Promise<T>) =>
  withNameConflict('TEMPLATE_NAME_TAKEN', 'Another template of this folder has this name', work);

/** What the caller's view of the list depends on besides the organization's templates and folders: folder access. */
function viewerOf(caller: UserCaller): string {
  return caller.membership.isOwner ? 'owner' : `role ${caller.membership.roleId}`;
}

/** The folder filter in a cache key: every folder, the root, or one folder (JSON would write undefined as null). */
function folderKey(filter: TemplateFilter): string {
  return filter.folderId === undefined ? 'any' : filter.folderId === null ? 'root' : `folder ${filter.folderId}`;
}

function toFilter(folderId: number | undefined, search?: string): TemplateFilter {
  return {
    folderId: folderId === undefined ? undefined : folderId === 0 ? null : folderId,
    search: search?.trim() || undefined,
  };
}

/**
 * Templates (SPEC.md "Templates"): snapshots of a workflow that members of the organization with the TEMPLATES
 * right instantiate, narrowed by folder access. The snapshot is a hidden workflow (template-instances.ts).
 */
export function createTemplateService(deps: TemplateServiceDeps) {
  const { db, blobs, routing, lists } = deps;
  return { list, names, get, create, update, rename, move, clone, remove, download, slots, use };

  /** One page, as the answer's items (kept per organization and viewer, mapped once). */
  async function list(caller: UserCaller, query: TemplatesPageQuery) {
    const filter = toFilter(query.folderId, query.searchValue);
    const key = JSON.stringify([
      'page',
      viewerOf(caller),
      folderKey(filter),
      filter.search ?? '',
      query.page,
      query.size,
    ]);
    const { content, total } = await lists.read(
      caller.organizationId,
      key,
      async () => {
        const hidden = [...(await hiddenFoldersFor(db, caller))];
        const { rows, total } = await findTemplatePage(db, caller.organizationId, hidden, filter, pageOffset(query));
        return { content: rows.map(toTemplateResponse), total };
      },
      (page) => page.content.length,
    );
    return toNumberedPage(content, total, query);
  }

  async function names(caller: UserCaller, folderId: number | undefined) {
    const filter = toFilter(folderId);
    return lists.read(
      caller.organizationId,
      JSON.stringify(['names', viewerOf(caller), folderKey(filter)]),
      async () => findTemplateNames(db, caller.organizationId, [...(await hiddenFoldersFor(db, caller))], filter),
      (found) => found.length,
    );
  }

  async function get(caller: UserCaller, templateId: number): Promise<TemplateRow> {
    return readVisibleTemplate(lists, db, caller, templateId);
  }

  async function assertNameFree(
    tx: DbOrTx,
    caller: UserCaller,
    folderId: number | null,
    name: string,
    exceptId?: number,
  ): Promise<void> {
    if (await findTemplateByName(tx, caller.organizationId, folderId, name, exceptId)) {
      throw new AppError('TEMPLATE_NAME_TAKEN', `A template named "${name}" already exists in this folder`);
    }
  }

  /** The caller's own workflow to snapshot: visible and owned (404 / INVALID_WORKFLOW_OWNER), of the caller's organization, with content. */
  async function sourceWorkflow(tx: Tx, caller: UserCaller, workflowId: number): Promise<WorkflowRow> {
    const access = await findWorkflowForCaller(tx, caller, workflowId);
    assertOwner(access);
    const { workflow } = access;
    if (workflow.organizationId !== caller.organizationId) throw new AppError('NOT_FOUND', 'Workflow not found');
    if (workflow.sequence === 'SELF' || workflow.sequence === 'SURVEY') {
      throw new AppError(
        'OPERATION_IS_NOT_ALLOWED',
        `A ${workflow.sequence} workflow cannot become a template: a template is sent to other recipients`,
      );
    }
    if ((await countDocumentsOf(tx, workflow.id)) === 0)
      throw new AppError('OPERATION_IS_NOT_ALLOWED', 'The workflow has no document');
    return workflow;
  }

  function cleanLabels(
    labels: { order: number; label: string }[] | undefined,
    slots: number,
  ): { order: number; label: string }[] {
    const seen = new Set<number>();
    const kept: { order: number; label: string }[] = [];
    for (const entry of labels ?? []) {
      if (entry.order > slots)
        throw new AppError(
          'INVALID_REQUEST_BODY',
          `recipientLabels order ${entry.order} matches no recipient slot (1-${slots})`,
          { field: 'recipientLabels' },
        );
      if (seen.has(entry.order))
        throw new AppError('INVALID_REQUEST_BODY', `recipientLabels order ${entry.order} is given more than once`, {
          field: 'recipientLabels',
        });
      seen.add(entry.order);
      const label = entry.label.trim();
      if (label) kept.push({ order: entry.order, label });
    }
    return kept.sort((a, b) => a.order - b.order);
  }

  function reminders(body: CreateTemplateBody): { reminderEnabled: boolean; reminderIntervalDays: number | null } {
    const reminderEnabled = body.reminderEnabled ?? false;
    const reminderIntervalDays = body.reminderIntervalDays ?? null;
    if (reminderEnabled && reminderIntervalDays === null)
      throw new AppError('INVALID_REQUEST_BODY', 'reminderIntervalDays (1-30) is required when reminderEnabled', {
        field: 'reminderIntervalDays',
      });
    return { reminderEnabled, reminderIntervalDays };
  }

  async function create(caller: UserCaller, body: CreateTemplateBody): Promise<TemplateRow> {
    const name = requireText(body.name, 'name');
    const folderId = body.folderId ?? null;
    const settings = reminders(body);
    return nameConflict(() =>
      db.transaction(async (tx) => {
        if (folderId !== null) await getVisibleFolder(tx, caller, folderId, { lock: true });
        await assertNameFree(tx, caller, folderId, name);
        const source = await sourceWorkflow(tx, caller, body.workflowId);
        const snapshot = await takeSnapshot(tx, source, caller.userId);
        if (snapshot.slots === 0)
          throw new AppError(
            'OPERATION_IS_NOT_ALLOWED',
            "The workflow has no recipients to become the template's slots",
          );
        return insertTemplate(tx, {
          organizationId: caller.organizationId,
          ownerUserId: caller.userId,
          name,
          description: body.description?.trim() ?? '',
          workflowId: snapshot.workflowId,
          sourceWorkflowId: source.id,
          folderId,
          recipientLabels: cleanLabels(body.recipientLabels, snapshot.slots),
          ...settings,
        });
      }),
    );
  }

  /** In place. overwrite true retakes the snapshot from workflowId; false changes the template's own settings only. */
  async function update(caller: UserCaller, body: UpdateTemplateBody): Promise<TemplateRow> {
    const name = requireText(body.name, 'name');
    const folderId = body.folderId ?? null;
    const settings = reminders(body);
    return nameConflict(() =>
      db.transaction(async (tx) => {
        const template = await getVisibleTemplate(tx, caller, body.id, { lock: true });
        if (folderId !== null) await getVisibleFolder(tx, caller, folderId, { lock: true });
        await assertNameFree(tx, caller, folderId, name, template.id);
        let snapshot: { workflowId: number; slots: number; sourceWorkflowId: number; snapshotAt: Date } | null = null;
        if (body.overwrite) {
          const source = await sourceWorkflow(tx, caller, body.workflowId);
          const taken = await takeSnapshot(tx, source, caller.userId);
          if (taken.slots === 0)
            throw new AppError(
              'OPERATION_IS_NOT_ALLOWED',
              "The workflow has no recipients to become the template's slots",
            );
          snapshot = { ...taken, sourceWorkflowId: source.id, snapshotAt: new Date() };
        } else if (body.workflowId !== template.sourceWorkflowId) {
          throw new AppError(
            'INVALID_REQUEST_BODY',
            "workflowId is not this template's source workflow: pass overwrite true to take a new snapshot of it",
            { field: 'workflowId' },
          );
        }
        const slots = snapshot?.slots ?? (await findSlots(tx, template)).length;
        return updateTemplate(tx, template.id, {
          name,
          description: body.description?.trim() ?? template.description,
          folderId,
          recipientLabels: cleanLabels(body.recipientLabels, slots),
          ...settings,
          ...(snapshot
            ? {
                workflowId: snapshot.workflowId,
                sourceWorkflowId: snapshot.sourceWorkflowId,
                snapshotAt: snapshot.snapshotAt,
              }
            : {}),
        });
      }),
    );
  }

  async function rename(caller: UserCaller, templateId: number, rawName: string): Promise<TemplateRow> {
    const name = requireText(rawName, 'name');
    return nameConflict(() =>
      db.transaction(async (tx) => {
        const template = await getVisibleTemplate(tx, caller, templateId, { lock: true });
        await assertNameFree(tx, caller, template.folderId, name, template.id);
        return updateTemplate(tx, template.id, { name });
      }),
    );
  }

  /** All or nothing: each template must be visible (404) and its name free in the target folder (409). */
  async function move(caller: UserCaller, rawIds: number[], folderId: number | null): Promise<TemplateRow[]> {
    const ids = [...new Set(rawIds)].sort((a, b) => a - b);
    return nameConflict(() =>
      db.transaction(async (tx) => {
        if (folderId !== null) await getVisibleFolder(tx, caller, folderId, { lock: true });
        const moved: TemplateRow[] = [];
        for (const id of ids) {
          const template = await getVisibleTemplate(tx, caller, id, { lock: true });
          await assertNameFree(tx, caller, folderId, template.name, template.id);
          moved.push(await updateTemplate(tx, template.id, { folderId }));
        }
        return moved;
      }),
    );
  }

  /** A new template with its own copy of the snapshot; named `name`, else "Copy of <name>" (numbered while taken). */
  async function clone(
    caller: UserCaller,
    templateId: number,
    body: { name?: string; folderId?: number | null },
  ): Promise<TemplateRow> {
    return nameConflict(() =>
      db.transaction(async (tx) => {
        const template = await getVisibleTemplate(tx, caller, templateId);
        const folderId = body.folderId === undefined ? template.folderId : body.folderId;
        if (folderId !== null) await getVisibleFolder(tx, caller, folderId, { lock: true });
        let name: string;
        if (body.name !== undefined) {
          name = requireText(body.name, 'name');
          await assertNameFree(tx, caller, folderId, name);
        } else {
          name = await freeCopyName(tx, caller, folderId, template.name);
        }
        const snapshot = await findWorkflowRow(tx, template.workflowId);
        const copy = await takeSnapshot(tx, snapshot!, caller.userId);
        return insertTemplate(tx, {
          organizationId: caller.organizationId,
          ownerUserId: caller.userId,
          name,
          description: template.description,
          workflowId: copy.workflowId,
          sourceWorkflowId: template.sourceWorkflowId,
          folderId,
          recipientLabels: template.recipientLabels,
          reminderEnabled: template.reminderEnabled,
          reminderIntervalDays: template.reminderIntervalDays,
        });
      }),
    );
  }

  async function freeCopyName(
    tx: DbOrTx,
    caller: UserCaller,
    folderId: number | null,
    original: string,
  ): Promise<string> {
    for (let n = 1; n <= 100; n += 1) {
      const suffix = n === 1 ? '' : ` (${n})`;
      const candidate = `Copy of ${original}`.slice(0, TEMPLATE_NAME_MAX - suffix.length).trimEnd() + suffix;
      if (!(await findTemplateByName(tx, caller.organizationId, folderId, candidate))) return candidate;
    }
    throw new AppError('TEMPLATE_NAME_TAKEN', 'Give the copy a name: every "Copy of" name is taken');
  }

  /** All or nothing (404 for any id not visible). Deleted templates keep their rows: workflows made from them keep their link. */
  async function remove(caller: UserCaller, rawIds: number[]): Promise<void> {
    const ids = [...new Set(rawIds)].sort((a, b) => a - b);
    await db.transaction(async (tx) => {
      for (const id of ids) await getVisibleTemplate(tx, caller, id, { lock: true });
      await softDeleteTemplates(tx, ids);
    });
  }

  async function download(caller: UserCaller, templateId: number): Promise<{ filename: string; bytes: Uint8Array }> {
    const template = await getVisibleTemplate(db, caller, templateId);
    const document = await findFirstDocument(db, template.workflowId);
    if (!document) throw new AppError('NOT_FOUND', 'The template has no document');
    const base = document.name.replace(/\.pdf$/i, '');
    return { filename: `${base}.pdf`, bytes: await blobs.get(document.blobKey) };
  }

  async function slots(caller: UserCaller, templateId: number) {
    const template = await getVisibleTemplate(db, caller, templateId);
    return (await findSlots(db, template)).map((slot, index) => ({
      id: slot.id,
      name: slot.name,
      emailAddress: slot.email,
      role: slot.role,
      order: index + 1,
      label: slot.label,
    }));
  }

  /**
   * use, apply and dispatch: the member's role must allow using templates (ROLE_TEMPLATES_NOT_ALLOWED); dispatch
   * also checks what sending checks (plan, credits, the role's allowDocSend). One transaction.
   */
  async function use(
    caller: UserCaller,
    templateId: number,
    request: Instantiation,
    context: RequestContext,
  ): Promise<number> {
    // Recipient passwords are hashed first: the transaction must not wait for argon2 (template-instances.ts).
    const prepared = await prepareInstantiation(request);
    const workflow = await db.transaction(async (tx) => {
      const template = await getVisibleTemplate(tx, caller, templateId);
      await assertMayUseTemplates(tx, caller.organizationId, caller.userId);
      return instantiate(tx, routing, caller, template, prepared, context);
    });
    if (request.mode === 'dispatch') routing.outbox.notify();
    return workflow.id;
  }
}

export type TemplateService = ReturnType<typeof createTemplateService>;
