import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../errors.ts';
import type { Caller, GuestCaller, UserCaller } from '../../http/authenticate.ts';
import { assertRecipientPasswordPassed } from './recipient-password-gate.ts';

import {
  findLiveWorkflow,
  findLiveWorkflowWithRecipient,
  findRecipientsOfWorkflow,
  findRecipientsOfWorkflows,
  findRowsOfUserWithVerification,
  lockLiveWorkflowWithRecipientOfDocument,
  type RecipientRow,
  type WorkflowRow,
} from './workflows.repo.ts';

export type { RecipientRow, WorkflowRow } from './workflows.repo.ts';
/** One recipient row of a workflow, whoever asks (no visibility check); a live workflow with one of its rows. */
export { findLiveWorkflowWithRecipient, findRecipientOfWorkflow } from './workflows.repo.ts';

/**
 * How the caller relates to a workflow: its owner, or one of its recipients (the row the caller acts as). `byApp`: the
 * caller is a business app's token acting as its user, which never acts as a recipient: its `recipient` is always
 * null (see ownRecipientRow).
 */
export type WorkflowAccess = {
  workflow: WorkflowRow;
  isOwner: boolean;
  recipient: RecipientRow | null;
  byApp: boolean;
};

/** A business app's token acting as its user (grant CLIENT_CREDENTIALS). */
export function isAppCaller(caller: Caller): caller is UserCaller & { appId: number } {
  return caller.kind === 'user' && caller.appId !== undefined;
}

/**
 * Whether the workflow lies where the caller may reach at all. A business app's token acts for its user within the
 * app's organization only (RUNTIME.md "Who may do what"): the user's workflows of other organizations, and envelopes
 * others sent the user from them, do not exist for it (404), as the token's organization's credits and rules are
 * the only ones it may spend and follow. Every other caller reaches any organization's workflows it is party to.
 */
export function isWithinReach(caller: Caller, workflow: Pick<WorkflowRow, 'organizationId'>): boolean {
  return !isAppCaller(caller) || workflow.organizationId === caller.organizationId;
}

/**
 * The caller's own recipient row, for a call that acts as it: fill, sign, approve, decline, delegate it, the identity
 * steps, its signing key, its telemetry. A business app's token never acts as a recipient (403 USER_NOT_HAVE_ACCESS):
 * a signature "happens only interactively" and partners embed the signing page, where the recipient acts through
 * their own signing link (SPEC.md). Without a row: OPERATION_IS_NOT_ALLOWED.
 */
export function ownRecipientRow(access: WorkflowAccess): RecipientRow {
  assertMayActAsRecipient(access);
  if (!access.recipient) throw new AppError('OPERATION_IS_NOT_ALLOWED', 'You are not a recipient of this workflow');
  return access.recipient;
}

/** ownRecipientRow's first rule alone, for checks that must come before the others (acting-recipient.ts). */
export function assertMayActAsRecipient(access: WorkflowAccess): void {
  if (access.byApp) {
    throw new AppError(
      'USER_NOT_HAVE_ACCESS',
      "A business app's token does not act as a recipient: the recipient signs through their own signing link",
    );
  }
}

/**
 * Loads a workflow the caller may see, or throws 404 (outsiders cannot tell it exists). The owner always
 * sees it; a registered recipient once it has left DRAFT; a guest token only its own workflow, as its row; a business
 * app's token only workflows of its organization (isWithinReach), and never as a recipient (recipient null).
 * `lock` takes a row lock for the rest of the transaction (state changes). A recipient whose row has a
 * recipientPassword that this session has not entered gets 403 IDENTITY_NOT_VERIFIED, except for the one
 * call that enters it (`beforeRecipientPassword`).
 */
export async function findWorkflowForCaller(
  db: DbOrTx,
  caller: Caller,
  workflowId: number,
  options: { lock?: boolean; beforeRecipientPassword?: boolean } = {},
): Promise<WorkflowAccess> {
  const access = await findVisibleWorkflow(db, caller, workflowId, options);
  if (!options.beforeRecipientPassword) await assertRecipientPasswordPassed(db, caller, access);
  // The user's row made the workflow visible and was held to its password above; a business app never acts as it.
  return access.byApp ? { ...access, recipient: null } : access;
}

/**
 * findWorkflowForCaller, locked, for a signing link's guest acting on `documentId` (a save names a document): the
 * workflow its session is for and its row in one statement, when the document is that workflow's. Null when it is not
 * (or the workflow or row is gone): the caller then looks the document up and asks findWorkflowForCaller, whose error
 * that answer is.
 */
export async function findGuestAccessToDocument(
  db: DbOrTx,
  caller: GuestCaller,
  documentId: number,
): Promise<WorkflowAccess | null> {
  const found = await lockLiveWorkflowWithRecipientOfDocument(db, caller.workflowId, caller.recipientId, documentId);
  if (!found) return null;
  const access = { workflow: found.workflow, isOwner: false, recipient: found.recipient, byApp: false };
  await assertRecipientPasswordPassed(db, caller, access);
  return access;
}

async function findVisibleWorkflow(
  db: DbOrTx,
  caller: Caller,
  workflowId: number,
  options: { lock?: boolean },
): Promise<WorkflowAccess> {
  if (caller.kind === 'guest') {
    // A signing link's session reaches its own workflow and row only: both read in one statement.
    const found =
      caller.workflowId === workflowId
        ? await findLiveWorkflowWithRecipient(db, workflowId, caller.recipientId, options.lock)
        : null;
    if (!found) throw new AppError('NOT_FOUND', 'Workflow not found');
    return { workflow: found.workflow, isOwner: false, recipient: found.recipient, byApp: false };
  }

  const workflow = await findLiveWorkflow(db, workflowId, options.lock);
  if (!workflow || !isWithinReach(caller, workflow)) throw new AppError('NOT_FOUND', 'Workflow not found');
  const isOwner = workflow.ownerUserId === caller.userId;
  const byApp = isAppCaller(caller);
  const { rows, emailVerified } = await findRowsOfUser(db, workflow.id, caller.userId);
  // Prefer the row that can still act (a person may hold two rows, e.g. a delegated one).
  const recipient = rows.find((r) => r.status !== 'DELEGATED') ?? rows[0] ?? null;
  if (isOwner) return { workflow, isOwner, recipient, byApp };
  // A Power Survey parent is its owner's alone (its recipient list is every respondent's address): recipients reach
  // their own child workflows.
  if (!recipient || !emailVerified || workflow.status === 'DRAFT' || isSurveyParent(workflow))
    throw new AppError('NOT_FOUND', 'Workflow not found');
  return { workflow, isOwner, recipient, byApp };
}

/**
 * A user's recipient rows of one workflow, and whether the user's email is verified. Rows addressed to an
 * account reach the workflow through that account only once its address is verified (RUNTIME.md "Accounts":
 * signing up with someone else's email must not open their envelopes); until then only through the rows'
 * signing links. The owner's own rows (a SELF workflow) count either way.
 */
export async function findRowsOfUser(
  db: DbOrTx,
  workflowId: number,
  userId: number,
): Promise<{ rows: RecipientRow[]; emailVerified: boolean }> {
  const found = await findRowsOfUserWithVerification(db, workflowId, userId);
  return { rows: found.map((f) => f.row), emailVerified: found.some((f) => f.emailVerifiedAt !== null) };
}

/** For owner-only operations on a workflow the caller can see: SPEC.md's INVALID_WORKFLOW_OWNER. */
export function assertOwner(access: WorkflowAccess): void {
  if (!access.isOwner) throw new AppError('INVALID_WORKFLOW_OWNER', 'Only the workflow owner may do this');
}

/** Editing rule 1: recipients, fields and documents change only while DRAFT. */
export function assertDraft(workflow: WorkflowRow): void {
  if (workflow.status !== 'DRAFT')
    throw new AppError('INVALID_WORKFLOW_STATUS', `Workflow is ${workflow.status}; only a DRAFT can be edited`);
}

/**
 * A workflow the caller may edit, locked for the rest of the transaction: visible (else 404), owned (else
 * INVALID_WORKFLOW_OWNER) and DRAFT (else INVALID_WORKFLOW_STATUS), checked in that order.
 */
export async function findEditableWorkflow(db: DbOrTx, caller: Caller, workflowId: number): Promise<WorkflowRow> {
  const access = await findWorkflowForCaller(db, caller, workflowId, { lock: true });
  assertOwner(access);
  assertDraft(access.workflow);
  return access.workflow;
}

/** Every recipient row of a workflow, hidden ones included, in signing order: the one definition of that order. */
export async function findRecipientsInSigningOrder(db: DbOrTx, workflowId: number): Promise<RecipientRow[]> {
  return findRecipientsOfWorkflow(db, workflowId);
}

/** findRecipientsInSigningOrder for many workflows (a batch send): workflow id → its rows in signing order. */
export async function findRecipientsInSigningOrderMany(
  db: DbOrTx,
  workflowIds: number[],
): Promise<Map<number, RecipientRow[]>> {
  return findRecipientsOfWorkflows(db, workflowIds);
}

/** A Power Survey parent (its children are ordinary workflows pointing back at it). */
export function isSurveyParent(workflow: WorkflowRow): boolean {
  return workflow.sequence === 'SURVEY' && workflow.parentWorkflowId === null;
}

/** A workflow that is not deleted, whoever asks (no visibility check: for links and jobs that carry their own proof). */
export async function findLiveWorkflowById(
  db: DbOrTx,
  workflowId: number,
  options: { lock?: boolean } = {},
): Promise<WorkflowRow | null> {
  return findLiveWorkflow(db, workflowId, options.lock);
}
