import type { Caller, UserCaller } from '../../http/authenticate.ts';
import { AppError } from '../../errors.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import { findUserById } from '../users/users.directory.ts';
import {
  assertOwner,
  findEditableWorkflow,
  findWorkflowForCaller,
  type RecipientRow,
  type WorkflowRow,
} from './workflow-access.ts';
import { findRecipientsOfWorkflow, insertRecipient, setRecipientOrder, updateWorkflow } from './workflows.repo.ts';
import type { ReminderBody, Sequence } from './workflows.schemas.ts';
import { requireText } from './workflow-ids.ts';

export const REMINDER_INTERVAL_DAYS = { min: 1, max: 30 } as const;
export const REMINDER_OFFSET_MINUTES = { min: 1, max: 1439 } as const;

/** The signType each sequence implies (upload fills one from the other; a sequence change keeps them in step). */
export const SIGN_TYPE_OF = {
  SELF: 'SELFSIGN',
  ORDERED: 'COUNTERSIGN',
  UNORDERED: 'COUNTERSIGN',
  SURVEY: 'POWERSURVEY',
} as const satisfies Record<Sequence, string>;

/** The colour the owner's own row gets when a workflow becomes self-signed, here or at upload with sequence SELF. */
export const SELF_RECIPIENT_COLOR = '#1A56DB';

function isWholeIn(value: number | null | undefined, range: { min: number; max: number }): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max;
}

/** Workflow settings: rename, sequence mode, reminder configuration (SPEC.md "Workflow settings"). */
export function createWorkflowService({ db }: { db: Db }) {
  return { rename, isOrdered, changeSequence, configureReminder };

  /** Owner only; any status but VOID (SPEC.md editing rule 3: a VOID workflow is read-only). */
  async function rename(caller: UserCaller, workflowId: number, rawName: string): Promise<WorkflowRow> {
    const name = requireText(rawName, 'name');
    return db.transaction(async (tx) => {
      const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true });
      assertOwner(access);
      if (access.workflow.status === 'VOID')
        throw new AppError('INVALID_WORKFLOW_STATUS', 'A VOID workflow is read-only');
      return updateWorkflow(tx, workflowId, { name });
    });
  }

  async function isOrdered(caller: Caller, workflowId: number): Promise<boolean> {
    const { workflow } = await findWorkflowForCaller(db, caller, workflowId);
    return workflow.sequence === 'ORDERED';
  }

  /**
   * Owner, DRAFT. Keeps the recipient rows consistent with the new mode instead of leaving a state that
   * commence or signing would trip over:
   * - into SELF: allowed only while the workflow has no recipient or just the owner's SIGNER row; the owner's
   *   row is created when missing (RUNTIME.md: a SELF workflow has exactly that row); reminders are switched off.
   * - into SURVEY: every recipient must be a SIGNER (SPEC.md: a Power Survey accepts only SIGNER recipients).
   * - into ORDERED: rows without an order, or sharing one, are numbered 1..n in their current order.
   * - out of SELF: the owner's row stays as an ordinary signer.
   */
  async function changeSequence(caller: UserCaller, workflowId: number, sequence: Sequence): Promise<WorkflowRow> {
    return db.transaction(async (tx) => {
      const workflow = await findEditableWorkflow(tx, caller, workflowId);
      if (workflow.sequence === sequence) return workflow;
      const rows = await findRecipientsOfWorkflow(tx, workflow.id);
      if (sequence === 'SELF') await prepareSelf(tx, workflow, rows);
      if (sequence === 'SURVEY' && rows.some((r) => r.role !== 'SIGNER')) {
        throw new AppError(
          'OPERATION_IS_NOT_ALLOWED',
          'A Power Survey accepts only SIGNER recipients; remove the others first',
        );
      }
      if (sequence === 'ORDERED') await numberRecipients(tx, workflow.id, rows);
      const selfOff =
        sequence === 'SELF' ? { reminderEnabled: false, reminderIntervalDays: null, reminderOffsetMinutes: null } : {};
      return updateWorkflow(tx, workflow.id, { sequence, signType: SIGN_TYPE_OF[sequence], ...selfOff });
    });
  }

  async function prepareSelf(tx: Tx, workflow: WorkflowRow, rows: RecipientRow[]): Promise<void> {
    const onlyOwner = rows.length === 1 && rows[0].userId === workflow.ownerUserId && rows[0].role === 'SIGNER';
    if (rows.length > 0 && !onlyOwner) {
      throw new AppError(
        'OPERATION_IS_NOT_ALLOWED',
        'A self-signed workflow has only its owner as recipient; remove the other recipients first',
      );
    }
    if (rows.length === 0) {
      const owner = await findUserById(tx, workflow.ownerUserId);
      if (!owner) throw new AppError('INTERNAL_ERROR');
      await insertRecipient(tx, {
        workflowId: workflow.id,
        userId: owner.id,
        name: owner.name,
        email: owner.email,
        role: 'SIGNER',
        color: SELF_RECIPIENT_COLOR,
      });
    }
  }

  async function numberRecipients(tx: Tx, workflowId: number, rows: RecipientRow[]): Promise<void> {
    const orders = rows.map((r) => r.recipientOrder);
    const consistent = orders.every((o) => o !== null) && new Set(orders).size === orders.length;
    if (consistent) return;
    // rows arrive ordered by (recipientOrder nulls last, id): keep that order.
    for (const [index, row] of rows.entries()) {
      if (row.recipientOrder !== index + 1) await setRecipientOrder(tx, workflowId, row.id, index + 1);
    }
  }

  /**
   * SPEC.md reminder rules 1-5, in this order: owner (INVALID_WORKFLOW_OWNER), DRAFT (INVALID_WORKFLOW_STATUS),
   * SELF forces reminders off without error, `enabled` false clears, then a valid offsetMinutes wins over
   * intervalDays, and neither valid is BAD_REQUEST_BODY.
   */
  async function configureReminder(caller: UserCaller, workflowId: number, body: ReminderBody): Promise<WorkflowRow> {
    return db.transaction(async (tx) => {
      const workflow = await findEditableWorkflow(tx, caller, workflowId);
      const off = { reminderEnabled: false, reminderIntervalDays: null, reminderOffsetMinutes: null };
      if (workflow.sequence === 'SELF' || !body.enabled) return updateWorkflow(tx, workflowId, off);
      if (isWholeIn(body.offsetMinutes, REMINDER_OFFSET_MINUTES)) {
        return updateWorkflow(tx, workflowId, {
          reminderEnabled: true,
          reminderIntervalDays: null,
          reminderOffsetMinutes: body.offsetMinutes,
        });
      }
      if (isWholeIn(body.intervalDays, REMINDER_INTERVAL_DAYS)) {
        return updateWorkflow(tx, workflowId, {
          reminderEnabled: true,
          reminderIntervalDays: body.intervalDays,
          reminderOffsetMinutes: null,
        });
      }
      throw new AppError('BAD_REQUEST_BODY', 'Give offsetMinutes (1-1439) or intervalDays (1-30) to enable reminders');
    });
  }
}

export type WorkflowService = ReturnType<typeof createWorkflowService>;
