import { Type, type Static } from 'typebox';
import { IdParam, NumberedPage } from '../../http/schemas.ts';
import { IdListString } from '../workflows/workflow-ids.ts';
import type { FolderWithCount } from './folders.repo.ts';

export const FolderIdParams = Type.Object({ folderId: IdParam });
export const MoveOneParams = Type.Object({ folderId: IdParam, workflowID: IdListString });

export const FolderBody = Type.Object({
  folderName: Type.String({
    minLength: 1,
    maxLength: 50,
    description:
      '1-50 characters, not whitespace-only (400 INVALID_REQUEST_BODY); stored trimmed; unique per user ignoring case (409)',
  }),
});

export const MoveWorkflowsBody = Type.Object({ workflowIds: IdListString });

export const FoldersPageQuery = Type.Object({
  page: Type.Integer({ minimum: 0, maximum: 1000000, default: 0, description: 'zero-based page number' }),
  size: Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: 'page size' }),
  searchValue: Type.Optional(
    Type.String({ maxLength: 255, description: 'case-insensitive substring of the folder name' }),
  ),
});
export type FoldersPageQuery = Static<typeof FoldersPageQuery>;

export const FolderResponse = Type.Object({
  id: Type.Integer(),
  folderName: Type.String(),
  documentsCount: Type.Integer({
    description:
      'workflows filed in the folder, as the document list shows them (deleted ones and Power Survey children not counted)',
  }),
});

export const FolderList = Type.Array(FolderResponse, {
  description: "the caller's folders, by name (case-insensitive)",
});

export const FolderPage = NumberedPage(FolderResponse);

export function toFolderResponse(row: FolderWithCount): Static<typeof FolderResponse> {
  return { id: row.id, folderName: row.name, documentsCount: row.documentsCount };
}
