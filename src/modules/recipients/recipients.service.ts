import { AppError } from '../../errors.ts';
import type { Caller, UserCaller } from '../../http/authenticate.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import { deleteFieldsOfRecipient, findRecipientsWithFields } from '../fields/fields.service.ts';
import { findOrCreateGuestUser, normalizeEmail } from '../users/users.directory.ts';
import { findEditableWorkflow, findRecipientsInSigningOrder, findWorkflowForCaller, type RecipientRow, type WorkflowAccess, type WorkflowRow } from '../workflows/workflow-access.ts';
import { checkRecipientName, recipientOrder, recipientRole } from './recipient-rules.ts';
import { deleteRecipient, findRecipient, insertRecipients, updateRecipient, type RecipientValues } from './recipients.repo.ts';
import type { NewRecipient, RecipientRole, RecipientUpdate } from './recipients.schemas.ts';

/** One entry of an add or update body after its own rules passed. */
type Candidate = {
  index: number;
  name: string;
  email: string;
  role: RecipientRole;
  order: number | null;
  color: string;
  useDigitalCert: boolean;
  enforceIdentity: boolean;
  /** undefined: not given (update keeps the stored hash); null: none. */
  password: string | null | undefined;
};

/** A row as the ORDERED uniqueness rule sees it once the call is applied. */
type Slot = { index: number | null; email: string; order: number | null };

/**
 * Recipients of a workflow (SPEC.md "Recipient", "Recipients", editing rule 1). Writes: owner only, DRAFT
 * only, the whole array validated before anything is written. Reads: the owner, or a recipient of the
 * workflow (a registered one once it has left DRAFT, a signing-link token of this workflow at any time).
 */
export function createRecipientService({ db }: { db: Db }) {
  return { list, get, add, update, remove };

  async function list(caller: Caller, workflowId: number): Promise<RecipientRow[]> {
    const access = await findWorkflowForCaller(db, caller, workflowId);
    const rows = await findRecipientsInSigningOrder(db, workflowId);
    return rows.filter((row) => isVisible(access, caller, row));
  }

  async function get(caller: Caller, workflowId: number, recipientId: number): Promise<RecipientRow> {
    const access = await findWorkflowForCaller(db, caller, workflowId);
    const row = await findRecipient(db, workflowId, recipientId);
    if (!row || !isVisible(access, caller, row)) throw new AppError('NOT_FOUND', 'Recipient not found');
    return row;
  }

  async function add(caller: UserCaller, workflowId: number, body: NewRecipient[]): Promise<RecipientRow[]> {
    return db.transaction(async (tx) => {
      const workflow = await findEditableWorkflow(tx, caller, workflowId);
      if (workflow.sequence === 'SELF') {
        throw new AppError('OPERATION_IS_NOT_ALLOWED', 'A self-signed workflow has only its owner as recipient; change the sequence to add recipients');
      }
      const candidates = body.map((entry, index) => toCandidate(workflow, entry, index));
      const stored = await findRecipientsInSigningOrder(tx, workflow.id);
      assertUniqueUnderOrdered(workflow, [...stored.filter((r) => !r.isHidden).map(storedSlot), ...candidates]);

      const values: RecipientValues[] = [];
      for (const candidate of candidates) {
        const user = await findOrCreateGuestUser(tx, candidate.email, candidate.name);
        values.push({
          workflowId: workflow.id,
          userId: user.id,
          ...attributes(candidate),
          passwordHash: candidate.password ? await hashPassword(candidate.password) : null,
        });
      }
      return insertRecipients(tx, values);
    });
  }

  async function update(caller: UserCaller, workflowId: number, body: RecipientUpdate[]): Promise<RecipientRow[]> {
    return db.transaction(async (tx) => {
      const workflow = await findEditableWorkflow(tx, caller, workflowId);
      const ids = body.map((entry) => entry.id);
      if (new Set(ids).size !== ids.length) throw new AppError('INVALID_REQUEST_BODY', 'A recipient id appears more than once');
      const stored = await findRecipientsInSigningOrder(tx, workflow.id);
      const byId = new Map(stored.map((row) => [row.id, row]));
      const targets = body.map((entry, index) => {
        const row = byId.get(entry.id);
        if (!row) throw new AppError('NOT_FOUND', `Recipient ${entry.id} not found in this workflow`, { index, field: 'id' });
        return row;
      });
      const candidates = body.map((entry, index) => toCandidate(workflow, entry, index));
      if (workflow.sequence === 'SELF') candidates.forEach((candidate, index) => assertSelfRowKept(workflow, targets[index], candidate));

      await assertNoFieldsOnCc(tx, workflow.id, targets, candidates);

      const updatedIds = new Set(ids);
      const slots: Slot[] = [
        ...stored.filter((row) => !row.isHidden && !updatedIds.has(row.id)).map(storedSlot),
        ...candidates.filter((_, index) => !targets[index].isHidden),
      ];
      assertUniqueUnderOrdered(workflow, slots);

      const updated: RecipientRow[] = [];
      for (const [index, candidate] of candidates.entries()) {
        const row = targets[index];
        const userId = candidate.email === row.email ? row.userId : (await findOrCreateGuestUser(tx, candidate.email, candidate.name)).id;
        const password = candidate.password === undefined ? {} : { passwordHash: candidate.password ? await hashPassword(candidate.password) : null };
        updated.push(await updateRecipient(tx, workflow.id, row.id, { userId, ...attributes(candidate), ...password }));
      }
      return updated;
    });
  }

  /**
   * Deleting a recipient deletes the fields assigned to it (a field must belong to a recipient of its workflow).
   * The owner's own row of a SELF workflow cannot be deleted: that workflow always has exactly that row.
   */
  async function remove(caller: UserCaller, workflowId: number, recipientId: number): Promise<void> {
    await db.transaction(async (tx) => {
      const workflow = await findEditableWorkflow(tx, caller, workflowId);
      const row = await findRecipient(tx, workflow.id, recipientId);
      if (!row) throw new AppError('NOT_FOUND', 'Recipient not found');
      if (workflow.sequence === 'SELF' && row.userId === workflow.ownerUserId) {
        throw new AppError('OPERATION_IS_NOT_ALLOWED', 'The owner\'s row of a self-signed workflow cannot be removed');
      }
      await deleteFieldsOfRecipient(tx, workflow.id, row.id);
      await deleteRecipient(tx, workflow.id, row.id);
    });
  }
}

export type RecipientService = ReturnType<typeof createRecipientService>;

/** Hidden assistant rows show only to the owner and to the person holding the row (SPEC.md editing rule 4). */
function isVisible(access: WorkflowAccess, caller: Caller, row: RecipientRow): boolean {
  if (!row.isHidden || access.isOwner) return true;
  return caller.kind === 'guest' ? row.id === caller.recipientId : row.userId === caller.userId;
}

/** Rules of one entry on its own: name, role under SURVEY, order under ORDERED. */
function toCandidate(workflow: WorkflowRow, entry: NewRecipient, index: number): Candidate {
  const name = checkRecipientName(entry.name, index);
  const role = recipientRole(entry.recipientRole);
  if (workflow.sequence === 'SURVEY' && role !== 'SIGNER') {
    throw new AppError('OPERATION_IS_NOT_ALLOWED', 'A Power Survey accepts only SIGNER recipients', { index, field: 'recipientRole' });
  }
  const order = recipientOrder(entry.recipientOrder);
  if (workflow.sequence === 'ORDERED' && order === null) {
    throw new AppError('INVALID_RECIPIENT', 'recipientOrder is required when the workflow is ORDERED', { index, field: 'recipientOrder' });
  }
  return {
    index,
    name,
    email: normalizeEmail(entry.emailAddress),
    role,
    order,
    color: entry.recipientColor,
    useDigitalCert: entry.useDigitalCert,
    enforceIdentity: entry.enforceIdentity ?? false,
    password: entry.recipientPassword,
  };
}

function attributes(candidate: Candidate): Required<Pick<RecipientValues, 'name' | 'email' | 'role' | 'recipientOrder' | 'color' | 'useDigitalCert' | 'enforceIdentity'>> {
  return {
    name: candidate.name,
    email: candidate.email,
    role: candidate.role,
    recipientOrder: candidate.order,
    color: candidate.color,
    useDigitalCert: candidate.useDigitalCert,
    enforceIdentity: candidate.enforceIdentity,
  };
}

function storedSlot(row: RecipientRow): Slot {
  return { index: null, email: row.email, order: row.recipientOrder };
}

/** SPEC.md: under ORDERED no duplicate order and no duplicate email, counting the rows already stored. */
function assertUniqueUnderOrdered(workflow: WorkflowRow, slots: Slot[]): void {
  if (workflow.sequence !== 'ORDERED') return;
  const orders = new Set<number>();
  const emails = new Set<string>();
  for (const slot of slots) {
    const where = slot.index === null ? undefined : { index: slot.index };
    if (slot.order !== null) {
      if (orders.has(slot.order)) throw new AppError('DUPLICATE_RECIPIENT', `Recipient order ${slot.order} is used more than once`, where && { ...where, field: 'recipientOrder' });
      orders.add(slot.order);
    }
    if (emails.has(slot.email)) throw new AppError('DUPLICATE_RECIPIENT', `${slot.email} is already a recipient of this workflow`, where && { ...where, field: 'emailAddress' });
    emails.add(slot.email);
  }
}

/** A CC fills nothing (fields rule), so a row holding fields cannot become CC until they are moved or removed. */
async function assertNoFieldsOnCc(tx: Tx, workflowId: number, targets: RecipientRow[], candidates: Candidate[]): Promise<void> {
  const becomingCc = candidates.filter((candidate, index) => candidate.role === 'CC' && targets[index].role !== 'CC');
  const withFields = await findRecipientsWithFields(tx, workflowId, becomingCc.map((candidate) => targets[candidate.index].id));
  const blocked = becomingCc.find((candidate) => withFields.has(targets[candidate.index].id));
  if (blocked) {
    throw new AppError('INVALID_RECIPIENT', 'This recipient has fields; a CC fills nothing, so move or remove its fields before making it CC', { index: blocked.index, field: 'recipientRole' });
  }
}

/** RUNTIME.md: a SELF workflow's one row is its owner's, a SIGNER with the owner's email. */
function assertSelfRowKept(workflow: WorkflowRow, row: RecipientRow, candidate: Candidate): void {
  if (row.userId !== workflow.ownerUserId || candidate.email !== row.email || candidate.role !== 'SIGNER') {
    throw new AppError('OPERATION_IS_NOT_ALLOWED', 'The only recipient of a self-signed workflow is its owner, as a SIGNER with the owner\'s email', { index: candidate.index });
  }
}
