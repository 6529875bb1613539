import { Type, type Static } from 'typebox';
import { IdParam, Nullable } from '../../http/schemas.ts';
import { IdListString } from '../workflows/workflow-ids.ts';
import type { DocumentRow, ListItemRow } from './document-list.repo.ts';

/** A document with the list entry of its workflow: what the detail answers are made from. */
export type DocumentDetail = ListItemRow & { document: DocumentRow };

export const ListQuery = Type.Object({
  status: Type.Optional(
    Type.String({
      maxLength: 20,
      description:
        'All (default), Draft, Pending, Sent, Signed, Completed, Voided, Approved or Viewed, any case; anything else is 400. ' +
        "Draft/Sent/Completed/Voided/Approved: the workflow's status. Pending: action required from the caller (a SENT workflow where it is the caller's turn and they have not acted). " +
        'Signed: waiting for others (the caller signed or approved, the workflow is still SENT). Viewed: the caller opened it and has not acted yet (a subset of Pending).',
    }),
  ),
  folderID: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2147483647,
      description: 'only workflows filed in this personal folder of the caller (404 if it is not theirs)',
    }),
  ),
  folderId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'alias of folderID' })),
  searchValue: Type.Optional(
    Type.String({
      maxLength: 255,
      description: 'case-insensitive substring of the workflow name (wildcards match literally)',
    }),
  ),
  page: Type.Integer({ minimum: 0, maximum: 1000000, default: 0, description: 'zero-based page number' }),
  size: Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: 'page size' }),
});
export type ListQuery = Static<typeof ListQuery>;

const itemProperties = {
  workflowId: Type.Integer(),
  documentCount: Type.Integer(),
  recipientCount: Type.Integer({
    description: 'recipients shown to participants: hidden assistant rows and delegated-away rows not counted',
  }),
  name: Type.String({ description: 'the workflow name' }),
  ownerName: Type.String(),
  ownerUserId: Type.Integer({
    description:
      "the owner's user id: a client compares it with its own (GET /bff/auth/me userId) to offer owner-only actions",
  }),
  status: Type.String({ description: 'DRAFT, SENT, COMPLETED, VOID or APPROVED' }),
  sequence: Type.String({ description: 'SELF, ORDERED, UNORDERED or SURVEY' }),
  anyDigitalSignature: Type.Boolean({
    description: 'some recipient signs with a digital certificate (useDigitalCert)',
  }),
  isPowerSurvey: Type.Boolean({ description: 'a Power Survey parent' }),
  isPowerSurveyChild: Type.Boolean({ description: "one recipient's child workflow of a Power Survey" }),
  recipientId: Nullable(Type.Integer(), {
    description:
      "the caller's own recipient row (owner included when they are also a recipient); null when the caller holds none",
  }),
  recipientRole: Nullable(Type.String(), { description: 'SIGNER, APPROVER or CC of that row' }),
  enforceIdentity: Nullable(Type.Boolean(), { description: 'whether that row must pass the one-time code' }),
  folderId: Nullable(Type.Integer(), {
    description: "the owner's personal folder holding it; null for workflows the caller does not own",
  }),
  dateCreated: Type.String({ format: 'date-time', description: 'ISO 8601 (UTC)' }),
  dateSent: Nullable(Type.String({ format: 'date-time' }), { description: 'ISO 8601 (UTC); null while DRAFT' }),
};

export const ListItem = Type.Object(itemProperties);
export type ListItem = Static<typeof ListItem>;
export const ListPage = Type.Object({ content: Type.Array(ListItem), totalElements: Type.Integer() });

export const DocumentDetailResponse = Type.Object({
  ...itemProperties,
  id: Type.Integer({ description: 'the document id' }),
  documentName: Type.String({ description: "the document name (name is the workflow's)" }),
  position: Type.Integer({ description: 'zero-based place of the document in its workflow' }),
  size: Type.Integer({ description: 'bytes of the stored PDF' }),
  pages: Type.Integer(),
  isViewed: Type.Boolean(),
});
export const DocumentDetailList = Type.Array(DocumentDetailResponse, { description: 'ordered by position' });

export const StatusCounts = Type.Object(
  {
    draftDocCount: Type.Integer(),
    pendingDocCount: Type.Integer(),
    sentDocCount: Type.Integer(),
    signedDocCount: Type.Integer(),
    completedDocCount: Type.Integer(),
    voidDocCount: Type.Integer(),
  },
  {
    description:
      "Workflows per list filter: each equals the list's totalElements under Draft, Pending, Sent, Signed, Completed and Voided",
  },
);

export const DocIdParams = Type.Object({ docId: IdParam });
export const WorkflowIdParams = Type.Object({ workflowId: IdParam });

export const DeleteDocumentsBody = Type.Object({
  ids: Type.Array(IdParam, { minItems: 1, maxItems: 1000, description: 'document ids' }),
});
export const DeleteWorkflowsBody = Type.Object({ workflowIds: IdListString });

export const DeleteResult = Type.Object({
  deletedDocumentIds: Type.Array(Type.Integer()),
  deletedWorkflowIds: Type.Array(
    Type.Integer({ description: 'workflows soft-deleted (for DELETE /document/v1: drafts left without documents)' }),
  ),
});

export const DocumentOrderEntry = Type.Object({
  documentId: IdParam,
  order: Type.Integer({ minimum: 0, maximum: 2147483647, description: 'smaller first; distinct' }),
});
export type DocumentOrderEntry = Static<typeof DocumentOrderEntry>;
export const ChangeSequenceBody = Type.Array(DocumentOrderEntry, { minItems: 1, maxItems: 1000 });

export function toListItem(row: ListItemRow): ListItem {
  return {
    workflowId: row.workflowId,
    documentCount: row.documentCount,
    recipientCount: row.recipientCount,
    name: row.name,
    ownerName: row.ownerName,
    ownerUserId: row.ownerUserId,
    status: row.status,
    sequence: row.sequence,
    anyDigitalSignature: row.anyDigitalSignature,
    isPowerSurvey: row.parentWorkflowId === null && (row.signType === 'POWERSURVEY' || row.sequence === 'SURVEY'),
    isPowerSurveyChild: row.parentWorkflowId !== null,
    recipientId: row.recipientId,
    recipientRole: row.recipientRole,
    enforceIdentity: row.enforceIdentity,
    folderId: row.folderId,
    dateCreated: row.createdAt.toISOString(),
    dateSent: row.sentAt ? row.sentAt.toISOString() : null,
  };
}

export function toDocumentDetail(row: DocumentDetail): Static<typeof DocumentDetailResponse> {
  const { document } = row;
  return {
    ...toListItem(row),
    id: document.id,
    documentName: document.name,
    position: document.position,
    size: document.size,
    pages: document.pages,
    isViewed: document.isViewed,
  };
}
