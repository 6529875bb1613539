import { AppError } from '../../errors.ts';
import { pageOffset, toNumberedPage } from '../../http/schemas.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import { ORGANIZATION_MODULES } from '../../http/authorize.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import type { NotifiedCache } from '../../platform/db/notified-cache.ts';
import {
  countMembersByRole,
  deleteRoles,
  findAvailableRoles,
  findRole,
  findRoleByName,
  findRoles,
  findRoleWithCount,
  insertRole,
  updateRole,
  type RoleRow,
  type RoleWithCount,
} from './roles.repo.ts';
import {
  toRoleResponse,
  type PermissionsIn,
  type RoleBody,
  type RolesQuery,
  type StoredPermission,
} from './roles.schemas.ts';
import { grantsBeyond, type RoleGrants } from './role-limits.ts';

export type RoleService = ReturnType<typeof createRoleService>;

/**
 * Custom roles of the caller's organization (SPEC.md "Role", "Organization: roles"). A role of another
 * organization does not exist for the caller (404). Who may call what is the route's ROLES module right; what a
 * member who is not the owner may do with a role is assertWithinOwnRole's.
 * `lists` keeps the pages and the available list per organization until a role or membership of it changes
 * (migration 0024's notifications).
 */
export function createRoleService({ db, lists }: { db: Db; lists: NotifiedCache }) {
  return { list, get, create, update, replacePermissions, remove, available };

  async function list(caller: UserCaller, query: RolesQuery) {
    const filter = {
      name: query.name,
      description: query.description,
      status: query.status,
      searchValue: query.searchValue,
    };
    const key = JSON.stringify([
      'page',
      filter.name,
      filter.description,
      filter.status,
      filter.searchValue,
      query.page,
      query.size,
    ]);
    // Kept as the answer's items, mapped once.
    const { content, total } = await lists.read(
      caller.organizationId,
      key,
      async () => {
        const { rows, total } = await findRoles(db, caller.organizationId, filter, pageOffset(query));
        return { content: rows.map(toRoleResponse), total };
      },
      (page) => page.content.length,
    );
    return toNumberedPage(content, total, query);
  }

  async function get(caller: UserCaller, roleId: number): Promise<RoleWithCount> {
    const role = await findRoleWithCount(db, caller.organizationId, roleId);
    if (!role) throw new AppError('NOT_FOUND', `Role ${roleId} not found`);
    return role;
  }

  async function create(caller: UserCaller, body: RoleBody): Promise<RoleWithCount> {
    const name = roleName(body.name);
    const permissions = normalizePermissions(body.permissions ?? []);
    return uniqueName(() =>
      db.transaction(async (tx) => {
        await assertWithinOwnRole(tx, caller, { permissions, signatureSettings: body.signatureSettings });
        if (await findRoleByName(tx, caller.organizationId, name))
          throw new AppError('ROLE_NAME_TAKEN', `A role named "${name}" already exists`);
        const role = await insertRole(tx, caller.organizationId, {
          name,
          description: body.description?.trim() ?? '',
          status: body.status ?? 'ACTIVE',
          signatureSettings: body.signatureSettings,
          permissions,
        });
        return { ...role, membersCount: 0 };
      }),
    );
  }

  /** Replaces name and signature settings; description, status and permissions only when given. */
  async function update(caller: UserCaller, roleId: number, body: RoleBody): Promise<RoleWithCount> {
    const name = roleName(body.name);
    const permissions = body.permissions === undefined ? undefined : normalizePermissions(body.permissions);
    await uniqueName(() =>
      db.transaction(async (tx) => {
        const role = await findRole(tx, caller.organizationId, roleId, { lock: true });
        if (!role) throw new AppError('NOT_FOUND', `Role ${roleId} not found`);
        await assertMayChange(tx, caller, role, {
          permissions: permissions ?? role.permissions,
          signatureSettings: body.signatureSettings,
        });
        const other = await findRoleByName(tx, caller.organizationId, name);
        if (other && other.id !== roleId)
          throw new AppError('ROLE_NAME_TAKEN', `A role named "${name}" already exists`);
        await updateRole(tx, roleId, {
          name,
          signatureSettings: body.signatureSettings,
          ...(body.description !== undefined ? { description: body.description.trim() } : {}),
          ...(body.status ? { status: body.status } : {}),
          ...(permissions ? { permissions } : {}),
        });
      }),
    );
    return get(caller, roleId);
  }

  async function replacePermissions(caller: UserCaller, roleId: number, body: PermissionsIn): Promise<RoleWithCount> {
    const permissions = normalizePermissions(body);
    await db.transaction(async (tx) => {
      const role = await findRole(tx, caller.organizationId, roleId, { lock: true });
      if (!role) throw new AppError('NOT_FOUND', `Role ${roleId} not found`);
      await assertMayChange(tx, caller, role, { permissions, signatureSettings: role.signatureSettings });
      await updateRole(tx, roleId, { permissions });
    });
    return get(caller, roleId);
  }

  /**
   * All or nothing: every id must be a role of the organization (404) that nobody holds, invited members included
   * (409 ROLE_IN_USE with the members count). The roles are locked first; the foreign key from memberships is the
   * guard against an assignment racing the check.
   */
  async function remove(caller: UserCaller, roleIds: number[]): Promise<void> {
    const ids = [...new Set(roleIds)].sort((a, b) => a - b);
    try {
      await db.transaction(async (tx) => {
        const found: RoleRow[] = [];
        for (const id of ids) {
          const role = await findRole(tx, caller.organizationId, id, { lock: true });
          if (!role) throw new AppError('NOT_FOUND', `Role ${id} not found`);
          found.push(role);
        }
        for (const role of found) await assertMayChange(tx, caller, role);
        const inUse = await countMembersByRole(tx, ids);
        const first = ids.find((id) => inUse.has(id));
        if (first !== undefined) {
          throw new AppError(
            'ROLE_IN_USE',
            `Role ${first} is assigned to ${inUse.get(first)} member(s); give them another role first`,
            {
              roleId: first,
              membersCount: inUse.get(first),
              roles: ids.filter((id) => inUse.has(id)).map((id) => ({ roleId: id, membersCount: inUse.get(id) })),
            },
          );
        }
        await deleteRoles(tx, ids);
      });
    } catch (error) {
      if (isForeignKeyViolation(error))
        throw new AppError('ROLE_IN_USE', 'A role was given to a member while it was being deleted');
      throw error;
    }
  }

  function available(caller: UserCaller) {
    return lists.read(
      caller.organizationId,
      'available',
      () => findAvailableRoles(db, caller.organizationId),
      (found) => found.length,
    );
  }
}

/**
 * RUNTIME "Who may do what": a member who is not the owner cannot change (or delete) the role they hold, and acts
 * only on roles within their own, before and after the change: a stronger role is not theirs to edit, even to take
 * rights away.
 */
async function assertMayChange(tx: Tx, caller: UserCaller, role: RoleRow, after?: RoleGrants): Promise<void> {
  if (caller.membership.isOwner) return;
  if (role.id === caller.membership.roleId)
    throw new AppError('USER_NOT_HAVE_ACCESS', 'You cannot change the role you hold; the owner can');
  await assertWithinOwnRole(tx, caller, role, after);
}

/**
 * A member who is not the owner grants only what they hold: each role given must grant no module right, signature
 * permission or quota beyond the ACTIVE role the caller holds now (read in the caller's transaction). 403
 * USER_NOT_HAVE_ACCESS names what is beyond it.
 */
async function assertWithinOwnRole(tx: Tx, caller: UserCaller, ...given: (RoleGrants | undefined)[]): Promise<void> {
  if (caller.membership.isOwner) return;
  const held =
    caller.membership.roleId === null ? null : await findRole(tx, caller.organizationId, caller.membership.roleId);
  const ceiling = held?.status === 'ACTIVE' ? held : null;
  const beyond = [...new Set(given.flatMap((grants) => (grants ? grantsBeyond(grants, ceiling) : [])))];
  if (beyond.length > 0) {
    throw new AppError(
      'USER_NOT_HAVE_ACCESS',
      `Your own role does not grant ${beyond.join(', ')}; you can grant only what you hold`,
      { beyondOwnRole: beyond },
    );
  }
}

function roleName(raw: string): string {
  const name = raw.trim();
  if (!name) throw new AppError('INVALID_REQUEST_BODY', 'The role name must not be blank');
  return name;
}

/** Concurrent writes of one name: the (organization, name) unique index decides, the losers are duplicates. */
async function uniqueName<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('ROLE_NAME_TAKEN');
    throw error;
  }
}

/** SPEC.md: each right defaults to true when omitted. Stored spelled out, in the module order of SPEC.md. */
export function normalizePermissions(entries: PermissionsIn): StoredPermission[] {
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.moduleName))
      throw new AppError('INVALID_REQUEST_BODY', `Module ${entry.moduleName} appears more than once`);
    seen.add(entry.moduleName);
  }
  return [...entries]
    .sort((a, b) => ORGANIZATION_MODULES.indexOf(a.moduleName) - ORGANIZATION_MODULES.indexOf(b.moduleName))
    .map((entry) => ({
      moduleName: entry.moduleName,
      accessRights: {
        canView: entry.accessRights?.canView ?? true,
        canAdd: entry.accessRights?.canAdd ?? true,
        canEdit: entry.accessRights?.canEdit ?? true,
        canDelete: entry.accessRights?.canDelete ?? true,
      },
    }));
}

/** PostgreSQL foreign-key violation (SQLSTATE 23503), from either driver. */
function isForeignKeyViolation(error: unknown): boolean {
  for (
    let current = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    current && depth < 5;
    current = current.cause as typeof current, depth++
  ) {
    if (current.code === '23503') return true;
  }
  return false;
}

/** A role a member may be given: null (no role), or an ACTIVE role of the organization (404 otherwise; 400 ROLE_NOT_ASSIGNABLE when not ACTIVE). */
export async function assignableRole(
  tx: Tx,
  organizationId: number,
  roleId: number | null | undefined,
): Promise<number | null> {
  if (roleId === undefined || roleId === null) return null;
  const role = await findRole(tx, organizationId, roleId);
  if (!role) throw new AppError('NOT_FOUND', `Role ${roleId} not found`);
  if (role.status !== 'ACTIVE')
    throw new AppError('ROLE_NOT_ASSIGNABLE', `Role ${roleId} is ${role.status}; only an ACTIVE role can be given`);
  return role.id;
}
