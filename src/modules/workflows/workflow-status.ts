import { AppError } from '../../errors.ts';

/**
 * The workflow state machine (SPEC.md "States and transitions"), the one list of which status may follow which.
 * Every status write goes through `nextStatus`, so a transition SPEC.md does not list is a programming error that
 * fails loudly instead of a silently corrupt envelope.
 *
 * APPROVED (the API specification leaves its trigger open; docs/envelopes.md "Statuses"): a workflow whose action-required recipients are
 * all APPROVERs (no SIGNER ever had a task) ends APPROVED instead of COMPLETED when the last approver approves.
 * It is terminal and finished exactly like COMPLETED: sealed, evidence report, certificate, downloads.
 */
export const WORKFLOW_STATUSES = ['DRAFT', 'SENT', 'COMPLETED', 'VOID', 'APPROVED'] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];

export type WorkflowTrigger =
  /** POST commence, template dispatch, a Power Survey parent's commence or a child's dispatch. */
  | 'SEND'
  /** The last action-required recipient signed (or a SELF owner signed their draft). */
  | 'ALL_SIGNED'
  /** The last action-required recipient approved and no SIGNER had a task. */
  | 'ALL_APPROVED'
  /** A Power Survey parent whose every child is COMPLETED (the parent itself is never signed or sealed). */
  | 'SURVEY_COMPLETED'
  /** A recipient declined, or a survey parent's children all ended voided or declined, or the parent was declined. */
  | 'VOID';

const TRANSITIONS: Record<WorkflowTrigger, { from: readonly WorkflowStatus[]; to: WorkflowStatus }> = {
  SEND: { from: ['DRAFT'], to: 'SENT' },
  // A SELF workflow is signed by its owner while still a DRAFT (it never commences).
  ALL_SIGNED: { from: ['SENT', 'DRAFT'], to: 'COMPLETED' },
  ALL_APPROVED: { from: ['SENT'], to: 'APPROVED' },
  SURVEY_COMPLETED: { from: ['SENT'], to: 'COMPLETED' },
  VOID: { from: ['SENT'], to: 'VOID' },
};

/** The status `trigger` leads to from `from`; throws INVALID_WORKFLOW_STATUS for a transition the machine does not list. */
export function nextStatus(from: string, trigger: WorkflowTrigger): WorkflowStatus {
  const transition = TRANSITIONS[trigger];
  if (!(transition.from as readonly string[]).includes(from)) {
    throw new AppError('INVALID_WORKFLOW_STATUS', `A ${from} workflow cannot move to ${transition.to} (${trigger})`);
  }
  return transition.to;
}

/** COMPLETED and APPROVED: every action is done; the seal, the certificate and the evidence report exist. */
export function isFinishedStatus(status: string): boolean {
  return status === 'COMPLETED' || status === 'APPROVED';
}

/** VOID and the finished statuses: nothing about the envelope may change any more. */
export function isReadOnlyStatus(status: string): boolean {
  return status === 'VOID' || isFinishedStatus(status);
}
