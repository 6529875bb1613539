import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';
import type { CommentWithAuthor } from './comments.repo.ts';

/** the API specification Limits: 1-3000 characters after trimming. */
export const COMMENT_MAX_LENGTH = 3000;

export const WorkflowIdParams = Type.Object({ workflowId: IdParam });

export const CreateCommentBody = Type.Object({
  body: Type.String({
    maxLength: 4 * COMMENT_MAX_LENGTH,
    description: `1-${COMMENT_MAX_LENGTH} characters after trimming; stored trimmed. Empty or whitespace-only is 400 INVALID_REQUEST_BODY, longer is 400 INVALID_REQUEST_BODY`,
  }),
  fieldId: Type.Optional(
    Type.Union([IdParam, Type.Null()], { description: 'a field of this workflow (else 400 INVALID_REQUEST_BODY)' }),
  ),
  documentId: Type.Optional(
    Type.Union([Type.Integer(), Type.Null()], {
      description: 'accepted and ignored: never stored, always null in responses',
    }),
  ),
});
export type CreateCommentBody = Static<typeof CreateCommentBody>;

export const CommentResponse = Type.Object({
  id: Type.Integer(),
  workflowId: Type.Integer(),
  documentId: Type.Null({ description: 'always null' }),
  fieldId: Type.Union([Type.Integer(), Type.Null()]),
  authorUserId: Type.Integer(),
  authorName: Type.String({ description: "the author's account name" }),
  body: Type.String(),
  createdAt: Type.String({ format: 'date-time', description: 'ISO 8601 with offset (UTC)' }),
});

export const CommentList = Type.Array(CommentResponse, {
  description: 'every comment of the workflow, oldest first; not paginated',
});

export function toCommentResponse(row: CommentWithAuthor): Static<typeof CommentResponse> {
  return {
    id: row.id,
    workflowId: row.workflowId,
    documentId: null,
    fieldId: row.fieldId,
    authorUserId: row.authorUserId,
    authorName: row.authorName,
    body: row.body,
    createdAt: row.createdAt.toISOString(),
  };
}
