import { AppError } from '../../errors.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { findUserById } from '../users/users.directory.ts';
import { findWorkflowForCaller, type WorkflowAccess } from '../workflows/workflow-access.ts';
import { COMMENT_MAX_LENGTH, type CreateCommentBody } from './comments.schemas.ts';
import {
  findCommentsOfWorkflow,
  insertComment,
  isFieldOfWorkflow,
  unlinkCommentsFromDocuments,
  workflowExists,
  type CommentWithAuthor,
} from './comments.repo.ts';

/** Comments on a workflow (SPEC.md "Comments"): its owner and its recipients, signing-link tokens included. */
export function createCommentService({ db, log }: { db: Db; log: (message: string, error?: unknown) => void }) {
  return { addComment, listComments };

  /**
   * SPEC.md names USER_NOT_HAVE_ACCESS (403) for callers who are neither owner nor recipient, so that error wins
   * over the usual 404 for an existing workflow; a workflow that does not exist (or was deleted) stays 404.
   * A recipient of a workflow still in DRAFT has not been sent anything yet and is refused the same way.
   */
  async function accessFor(tx: DbOrTx, caller: Caller, workflowId: number): Promise<WorkflowAccess> {
    try {
      return await findWorkflowForCaller(tx, caller, workflowId);
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND' && (await workflowExists(tx, workflowId))) {
        throw new AppError(
          'USER_NOT_HAVE_ACCESS',
          'Only the workflow owner or one of its recipients may use its comments',
        );
      }
      throw error;
    }
  }

  async function listComments(caller: Caller, workflowId: number): Promise<CommentWithAuthor[]> {
    await accessFor(db, caller, workflowId);
    return findCommentsOfWorkflow(db, workflowId);
  }

  /**
   * Saves the comment and, best-effort, a COMMENT_ADDED activity naming the author. The activity runs in a
   * savepoint: if recording fails, only the savepoint rolls back and the comment still commits (SPEC.md).
   * A VOID workflow is read-only (editing rule 3).
   */
  async function addComment(
    caller: Caller,
    workflowId: number,
    input: CreateCommentBody,
    context: RequestContext,
  ): Promise<CommentWithAuthor> {
    const body = input.body.trim();
    if (body.length === 0)
      throw new AppError('INVALID_REQUEST_BODY', 'The comment body must not be empty or whitespace only');
    if ([...body].length > COMMENT_MAX_LENGTH)
      throw new AppError('INVALID_REQUEST_BODY', `The comment body is longer than ${COMMENT_MAX_LENGTH} characters`);
    return db.transaction(async (tx) => {
      const access = await accessFor(tx, caller, workflowId);
      if (access.workflow.status === 'VOID')
        throw new AppError('INVALID_WORKFLOW_STATUS', 'A VOID workflow is read-only');
      const fieldId = input.fieldId ?? null;
      if (fieldId !== null && !(await isFieldOfWorkflow(tx, workflowId, fieldId))) {
        throw new AppError('INVALID_REQUEST_BODY', `Field ${fieldId} is not a field of this workflow`);
      }
      const comment = await insertComment(tx, { workflowId, fieldId, authorUserId: caller.userId, body });
      const author = await findUserById(tx, caller.userId);
      const actingAsRecipient = !access.isOwner && access.recipient !== null;
      const authorName = (actingAsRecipient ? access.recipient!.name : author?.name) || author?.email || 'Someone';
      try {
        await tx.transaction(async (savepoint) => {
          await recordActivity(savepoint, {
            workflowId,
            kind: 'COMMENT_ADDED',
            action: 'Comment added',
            sentence: `${authorName} added a comment`,
            userId: caller.userId,
            userName: authorName,
            recipientId: actingAsRecipient ? access.recipient!.id : null,
            status: access.workflow.status,
            context,
          });
        });
      } catch (error) {
        log(`comment ${comment.id}: COMMENT_ADDED activity not recorded`, error);
      }
      return { ...comment, authorName: author?.name ?? '' };
    });
  }
}

export type CommentService = ReturnType<typeof createCommentService>;

/** For the documents module: before documents of a DRAFT are deleted, comments on their fields are unlinked (their text stays). */
export async function unlinkCommentsOfDocuments(tx: DbOrTx, documentIds: number[]): Promise<void> {
  await unlinkCommentsFromDocuments(tx, documentIds);
}
