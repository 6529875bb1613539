import { Readable } from 'node:stream';
import { AppError } from '../../errors.ts';
import type { Caller, UserCaller } from '../../http/authenticate.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { assertMaySend, debitSurvey } from '../billing/entitlements.service.ts';
import type { RoutingDeps } from '../signing/routing.ts';
import { assertSenderVerified, userDisplayName } from '../users/users.directory.ts';
import { assertActiveMemberOf } from '../organizations/organization-membership.ts';
import {
  assertOwner,
  findWorkflowForCaller,
  type WorkflowAccess,
  type WorkflowRow,
  isSurveyParent,
} from '../workflows/workflow-access.ts';
import { nextStatus } from '../workflows/workflow-status.ts';
import { csvLine } from './survey-csv.ts';
import { SURVEY_DISPATCH_JOB, afterSurveyChildSettled } from './survey-dispatch.ts';
import {
  countSurvey,
  countSurveyDocuments,
  findChildrenAfter,
  findChildrenPage,
  findFilledLabelledValues,
  findSurveyFields,
  findSurveyRecipientRoles,
  type ChildRow,
  type SurveyCounts,
} from './surveys.repo.ts';
import { setSurveyChildrenStatus, updateSurveyParent } from '../workflows/workflow-core.ts';

/** Field types that hold an image: they need no label and are never CSV columns. */
export const IMAGE_FIELD_TYPES = ['SIGNATURE', 'DIGITAL_SIGNATURE', 'INITIALS', 'STAMP'] as const;
const SIGNATURE_FIELD_TYPES = ['SIGNATURE', 'DIGITAL_SIGNATURE'];
/** Children read per query while streaming the CSV: memory stays flat whatever the survey's size. */
const EXPORT_CHUNK = 500;

export type SurveyCommenceResult = {
  workflowId: number;
  sentAt: Date;
  dispatchedRecipientIds: number[];
  credits: number;
  dispatch: 'ASYNC';
};
export type ChildrenPage = { rows: ChildRow[]; counts: SurveyCounts };

/** SPEC.md "Power Survey": commence, dispatch progress, the children, the CSV export, and the parent's decline. */
export function createSurveyService(deps: { db: Db; jobs: JobQueue; routing: RoutingDeps }) {
  const { db, jobs } = deps;
  return { commence, notify, progress, children, exportCsv, endParent, afterChildSettled };

  /** Wakes the dispatch worker after a commence committed. */
  function notify(): void {
    jobs.notify(SURVEY_DISPATCH_JOB);
  }

  /**
   * The SURVEY branch of POST commence, in commence's transaction with the parent locked and ownership checked.
   * A DRAFT is checked (one document, one unassigned signature field, labels, SIGNER recipients within the plan's
   * limit), the plan is asked (as for any send), one credit per recipient is debited at once, the parent becomes
   * SENT and the dispatch job is queued in the same commit. A SENT survey commenced again answers the same way
   * and queues the dispatch again (it resumes where it is; nothing is created twice); COMPLETED or VOID is
   * INVALID_WORKFLOW_STATUS.
   */
  async function commence(
    tx: Tx,
    caller: UserCaller,
    parent: WorkflowRow,
    message: { title: string | null; message: string | null },
    context: RequestContext,
  ): Promise<SurveyCommenceResult> {
    if (parent.status === 'SENT' && parent.sentAt) {
      await jobs.send(tx, SURVEY_DISPATCH_JOB, { parentWorkflowId: parent.id });
      return {
        workflowId: parent.id,
        sentAt: parent.sentAt,
        dispatchedRecipientIds: [],
        credits: 0,
        dispatch: 'ASYNC',
      };
    }
    await assertSenderVerified(tx, caller.userId);
    await assertActiveMemberOf(tx, parent.organizationId, caller.userId);
    const status = nextStatus(parent.status, 'SEND');
    const recipientCount = await assertSurveyConstraints(tx, parent);
    const now = new Date();
    await assertMaySend(tx, parent.organizationId, now, caller.userId);
    const credits = await debitSurvey(tx, parent.organizationId, recipientCount);
    await updateSurveyParent(tx, parent.id, {
      status,
      sentAt: now,
      statusAt: now,
      title: message.title,
      message: message.message,
    });
    const senderName = await userDisplayName(tx, caller.userId, 'The owner');
    await recordActivity(tx, {
      workflowId: parent.id,
      kind: 'WORKFLOW_SENT',
      action: 'Sent',
      sentence: `${senderName} sent the survey to ${recipientCount} recipient${recipientCount === 1 ? '' : 's'}`,
      userId: caller.userId,
      userName: senderName,
      status,
      context,
    });
    await jobs.send(tx, SURVEY_DISPATCH_JOB, { parentWorkflowId: parent.id });
    return { workflowId: parent.id, sentAt: now, dispatchedRecipientIds: [], credits, dispatch: 'ASYNC' };
  }

  /** The checks SPEC.md names "at dispatch", in this order; answers the recipient count. */
  async function assertSurveyConstraints(tx: Tx, parent: WorkflowRow): Promise<number> {
    const documentCount = await countSurveyDocuments(tx, parent.id);
    if (documentCount !== 1)
      throw new AppError('SURVEY_DOCUMENT_COUNT', `The survey has ${documentCount} documents; it needs exactly one`, {
        documentCount,
      });
    const fields = await findSurveyFields(tx, parent.id);
    const signatures = fields.filter((f) => SIGNATURE_FIELD_TYPES.includes(f.fieldType));
    if (signatures.length !== 1 || signatures[0].recipientId !== null) {
      throw new AppError(
        'SURVEY_SIGNATURE_FIELD',
        `The survey has ${signatures.length} signature fields${signatures.length === 1 ? ', assigned to a recipient' : ''}; it needs exactly one, assigned to nobody`,
        { signatureFieldIds: signatures.map((f) => f.id) },
      );
    }
    const unlabelled = fields.filter(
      (f) => !(IMAGE_FIELD_TYPES as readonly string[]).includes(f.fieldType) && !f.label?.trim(),
    );
    if (unlabelled.length > 0)
      throw new AppError(
        'SURVEY_FIELD_LABEL_MISSING',
        `Fields without a label: ${unlabelled.map((f) => f.id).join(', ')}`,
        { fieldIds: unlabelled.map((f) => f.id) },
      );
    const recipients = await findSurveyRecipientRoles(tx, parent.id);
    if (recipients.length === 0)
      throw new AppError('OPERATION_IS_NOT_ALLOWED', 'The survey has no recipients: add at least one before sending');
    if (recipients.some((r) => r.role !== 'SIGNER'))
      throw new AppError('OPERATION_IS_NOT_ALLOWED', 'A Power Survey accepts only SIGNER recipients');
    return recipients.length;
  }

  /** The survey the owner asks about: visible (404), owned (INVALID_WORKFLOW_OWNER), a survey parent (NOT_A_SURVEY). */
  async function ownSurvey(caller: Caller, workflowId: number): Promise<WorkflowRow> {
    const access = await findWorkflowForCaller(db, caller, workflowId);
    assertOwner(access);
    if (!isSurveyParent(access.workflow))
      throw new AppError('NOT_A_SURVEY', `Workflow ${workflowId} is not a Power Survey`);
    return access.workflow;
  }

  async function progress(caller: Caller, workflowId: number): Promise<SurveyCounts> {
    return countSurvey(db, (await ownSurvey(caller, workflowId)).id);
  }

  async function children(caller: Caller, workflowId: number, limit: number, offset: number): Promise<ChildrenPage> {
    const parent = await ownSurvey(caller, workflowId);
    const [rows, counts] = await Promise.all([
      findChildrenPage(db, parent.id, limit, offset),
      countSurvey(db, parent.id),
    ]);
    return { rows, counts };
  }

  /**
   * The CSV, streamed: a header, then one line per child in id order, read EXPORT_CHUNK children at a time.
   * With includeFields, one more column per distinct field label of the survey (in field order), holding what
   * that child filled in (several fields sharing a label: their values joined by "; "). Image fields are left out.
   */
  async function exportCsv(
    caller: Caller,
    workflowId: number,
    includeFields: boolean,
  ): Promise<{ name: string; stream: Readable }> {
    const parent = await ownSurvey(caller, workflowId);
    const labels = includeFields ? distinctLabels(await findSurveyFields(db, parent.id)) : [];
    async function* lines(): AsyncGenerator<string> {
      yield csvLine([
        'workflowId',
        'recipientName',
        'recipientEmail',
        'status',
        'recipientStatus',
        'respondedAt',
        'declineReason',
        ...labels,
      ]);
      let after = 0;
      for (;;) {
        const chunk = await findChildrenAfter(db, parent.id, after, EXPORT_CHUNK);
        if (chunk.length === 0) return;
        const values = includeFields ? await fieldValues(chunk.map((c) => c.workflowId)) : new Map();
        let text = '';
        for (const child of chunk) {
          const filled = values.get(child.workflowId);
          text += csvLine([
            String(child.workflowId),
            child.recipientName,
            child.recipientEmail,
            child.status,
            child.recipientStatus,
            child.respondedAt ? child.respondedAt.toISOString() : '',
            child.declineReason ?? '',
            ...labels.map((label) => filled?.get(label)?.join('; ') ?? ''),
          ]);
        }
        yield text;
        after = chunk[chunk.length - 1].workflowId;
      }
    }
    return { name: parent.name, stream: Readable.from(lines()) };
  }

  async function fieldValues(workflowIds: number[]): Promise<Map<number, Map<string, string[]>>> {
    const byChild = new Map<number, Map<string, string[]>>();
    for (const row of await findFilledLabelledValues(db, workflowIds)) {
      const label = row.label.trim();
      const own = byChild.get(row.workflowId) ?? new Map<string, string[]>();
      own.set(label, [...(own.get(label) ?? []), row.value]);
      byChild.set(row.workflowId, own);
    }
    return byChild;
  }

  /**
   * The owner's decline (POST decline on the parent) or void (POST void) of a SENT survey, in that transaction
   * with the parent locked: the parent becomes VOID and so does every child still SENT; completed children keep
   * their signature. The reason is recorded in the parent's Declined or Voided activity (the parent's
   * reject-details lists the children's declines, as SPEC.md says). Another caller who can see the parent:
   * INVALID_WORKFLOW_OWNER. Answers the children it voided, whose recipients the caller tells.
   */
  async function endParent(
    tx: Tx,
    caller: Caller,
    access: WorkflowAccess,
    how: 'DECLINED' | 'VOIDED',
    reason: string,
    context: RequestContext,
  ): Promise<{ workflowId: number; endedAt: Date; voidedChildIds: number[] }> {
    assertOwner(access);
    const parent = access.workflow;
    const status = nextStatus(parent.status, 'VOID');
    const now = new Date();
    await updateSurveyParent(tx, parent.id, { status, statusAt: now });
    const voidedChildIds = await setSurveyChildrenStatus(tx, parent.id, status, now);
    const ownerName = await userDisplayName(tx, caller.userId, 'The owner');
    const verb = how === 'DECLINED' ? 'declined' : 'voided';
    await recordActivity(tx, {
      workflowId: parent.id,
      kind: how,
      action: how === 'DECLINED' ? 'Declined' : 'Voided',
      sentence: `${ownerName} ${verb} the survey (${voidedChildIds.length} pending responses voided): ${reason}`,
      userId: caller.userId,
      userName: ownerName,
      status,
      context,
    });
    return { workflowId: parent.id, endedAt: now, voidedChildIds };
  }

  async function afterChildSettled(tx: Tx, workflow: WorkflowRow): Promise<void> {
    await afterSurveyChildSettled(tx, jobs, workflow);
  }
}

/** Labels of the non-image fields, trimmed, each once, in field order. */
function distinctLabels(fields: { fieldType: string; label: string | null }[]): string[] {
  const labels = fields
    .filter((f) => !(IMAGE_FIELD_TYPES as readonly string[]).includes(f.fieldType) && f.label?.trim())
    .map((f) => f.label!.trim());
  return [...new Set(labels)];
}

export type SurveyService = ReturnType<typeof createSurveyService>;
