import type { Membership } from '../../http/authorize.ts';

/** What folder access needs of a folder. */
export type FolderNode = { id: number; parentFolderId: number | null; overrideEnabled: boolean; roleIds: unknown };

/** The role ids a folder's access admits (the stored jsonb, of which only integers count). */
export function admittedRoleIds(roleIds: unknown): number[] {
  return Array.isArray(roleIds) ? roleIds.filter((id): id is number => Number.isInteger(id)) : [];
}

/**
 * The folders whose contents the member may not see (SPEC.md "Template folders": access restricts which custom
 * roles see a folder's contents). A folder with overrideEnabled admits only the roles it lists; the restriction
 * accumulates down the tree, so a subfolder can narrow what its parent admits but never widen it, and a hidden
 * folder hides its whole subtree (it is absent from lists and answers 404). The owner sees everything; a member
 * without a role is admitted by no restricted folder.
 */
export function hiddenFolderIds(nodes: FolderNode[], membership: Pick<Membership, 'isOwner' | 'roleId'>): Set<number> {
  const hidden = new Set<number>();
  if (membership.isOwner) return hidden;
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const memo = new Map<number, boolean>();
  const isHidden = (node: FolderNode, depth: number): boolean => {
    const known = memo.get(node.id);
    if (known !== undefined) return known;
    const restricts =
      node.overrideEnabled &&
      (membership.roleId === null || !admittedRoleIds(node.roleIds).includes(membership.roleId));
    const parent = node.parentFolderId === null ? undefined : byId.get(node.parentFolderId);
    // The depth guard only protects against a cycle, which the service never writes (a parent is fixed at creation).
    const result = restricts || (parent !== undefined && depth < 1000 && isHidden(parent, depth + 1));
    memo.set(node.id, result);
    return result;
  };
  for (const node of nodes) if (isHidden(node, 0)) hidden.add(node.id);
  return hidden;
}

/** The depth of a folder (a root folder is 1). */
export function folderDepth(nodes: FolderNode[], folderId: number): number {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  let depth = 0;
  for (
    let node = byId.get(folderId);
    node && depth < 1000;
    node = node.parentFolderId === null ? undefined : byId.get(node.parentFolderId)
  )
    depth += 1;
  return depth;
}
