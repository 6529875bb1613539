import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';
import type { TemplateFolderRow } from './template-folders.repo.ts';

export const MAX_FOLDERS_PER_ORGANIZATION = 1000;
export const MAX_FOLDER_DEPTH = 10;

const FolderName = Type.String({
  minLength: 1,
  maxLength: 50,
  description:
    '1-50 characters, not whitespace-only (400 INVALID_REQUEST_BODY); stored trimmed; unique among the folders of one parent ignoring case (409 TEMPLATE_FOLDER_EXISTS)',
});

export const FolderIdParams = Type.Object({ id: IdParam });

export const ChildrenQuery = Type.Object({
  parentFolderId: Type.Optional(IdParam),
});

export const CreateFolderBody = Type.Object({
  name: FolderName,
  parentFolderId: Type.Optional(
    Type.Union([IdParam, Type.Null()], { description: 'the parent folder; null or omitted: a root folder' }),
  ),
});
export type CreateFolderBody = Static<typeof CreateFolderBody>;

export const RenameFolderBody = Type.Object({ id: IdParam, name: FolderName });

export const DeleteFoldersQuery = Type.Object({
  ids: Type.Array(IdParam, {
    minItems: 1,
    maxItems: 100,
    description: 'repeated: ids=1&ids=2; at least one (400 otherwise)',
  }),
});

export const FolderAccessBody = Type.Object({
  roleIds: Type.Array(IdParam, {
    maxItems: 100,
    description:
      'custom roles of the organization admitted when overrideEnabled; an id that is not one is 400 TEMPLATE_FOLDER_ACCESS_INVALID',
  }),
  overrideEnabled: Type.Boolean({
    description:
      'true: only the owner and members of the listed roles see the folder and everything under it; false: no restriction of its own',
  }),
});
export type FolderAccessBody = Static<typeof FolderAccessBody>;

export const FolderResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  parentFolderId: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type FolderResponse = Static<typeof FolderResponse>;

export const FolderList = Type.Array(FolderResponse);

export type FolderTreeNode = FolderResponse & { children: FolderTreeNode[] };

/** A tree node schema nested as deep as folders may nest (a schema without recursion keeps serialization compiled). */
function treeNode(levels: number): ReturnType<typeof Type.Object> {
  return Type.Object({
    ...FolderResponse.properties,
    children: levels > 1 ? Type.Array(treeNode(levels - 1)) : Type.Array(Type.Never(), { maxItems: 0 }),
  });
}
export const FolderTree = Type.Array(treeNode(MAX_FOLDER_DEPTH), {
  description: 'root folders the caller may see, each with its visible subfolders',
});

export const FolderAccessResponse = Type.Object({
  roleIds: Type.Array(Type.Integer()),
  overrideEnabled: Type.Boolean(),
});

export function toFolderResponse(row: TemplateFolderRow): FolderResponse {
  return { id: row.id, name: row.name, parentFolderId: row.parentFolderId, createdAt: row.createdAt.toISOString() };
}
