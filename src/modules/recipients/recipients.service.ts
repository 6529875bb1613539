import { AppError } from '../../errors.ts';
import type { Caller, UserCaller } from '../../http/authenticate.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { deleteFieldsOfRecipient, findRecipientsWithFields } from '../fields/fields.service.ts';
import { findOrCreateGuestUser, normalizeEmail } from '../users/users.directory.ts';
import {
  findEditableWorkflow,
  findRecipientsInSigningOrder,
  findWorkflowForCaller,
  type RecipientRow,
  type WorkflowAccess,
  type WorkflowRow,
} from '../workflows/workflow-access.ts';
import { assertRecipientPasswordCount, hashRecipientPasswords } from './recipient-passwords.ts';
import { checkRecipientName, recipientOrder, recipientRole } from './recipient-rules.ts';
import {
  deleteRecipient,
  findRecipient,
  insertRecipients,
  updateRecipient,
  type RecipientValues,
} from './recipients.repo.ts';
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

  /**
   * Passwords are hashed before the transaction (recipient-passwords.ts); when the body carries any, the call's rules
   * are checked before hashing too, so a call that will be refused costs no hash. Both checks run again under the lock.
   */
  async function add(caller: UserCaller, workflowId: number, body: NewRecipient[]): Promise<RecipientRow[]> {
    const passwords = body.map((entry) => entry.recipientPassword);
    assertRecipientPasswordCount(passwords);
    if (passwords.some(Boolean)) await checkAdd(db, caller, workflowId, body);
    const hashes = await hashRecipientPasswords(passwords);
    return db.transaction(async (tx) => {
      const { workflow, candidates } = await checkAdd(tx, caller, workflowId, body);
      const values: RecipientValues[] = [];
      for (const candidate of candidates) {
        const user = await findOrCreateGuestUser(tx, candidate.email, candidate.name);
        values.push({
          workflowId: workflow.id,
          userId: user.id,
          ...attributes(candidate),
          passwordHash: hashes[candidate.index] ?? null,
        });
      }
      return insertRecipients(tx, values);
    });
  }

  async function checkAdd(dbOrTx: DbOrTx, caller: UserCaller, workflowId: number, body: NewRecipient[]) {
    const workflow = await findEditableWorkflow(dbOrTx, caller, workflowId);
    if (workflow.sequence === 'SELF') {
      throw new AppError(
        'OPERATION_IS_NOT_ALLOWED',
        'A self-signed workflow has only its owner as recipient; change the sequence to add recipients',
      );
    }
    const candidates = body.map((entry, index) => toCandidate(workflow, entry, index));
    const stored = await findRecipientsInSigningOrder(dbOrTx, workflow.id);
    assertUniqueUnderOrdered(workflow, [...stored.filter((r) => !r.isHidden).map(storedSlot), ...candidates]);
    return { workflow, candidates };
  }

  /** As add: passwords hashed before the transaction, the rules checked before hashing when there are any. */
  async function update(caller: UserCaller, workflowId: number, body: RecipientUpdate[]): Promise<RecipientRow[]> {
    const passwords = body.map((entry) => entry.recipientPassword);
    assertRecipientPasswordCount(passwords);
    if (passwords.some(Boolean)) await checkUpdate(db, caller, workflowId, body);
    const hashes = await hashRecipientPasswords(passwords);
    return db.transaction(async (tx) => {
      const { workflow, targets, candidates } = await checkUpdate(tx, caller, workflowId, body);
      const updated: RecipientRow[] = [];
      for (const [index, candidate] of candidates.entries()) {
        const row = targets[index];
        const userId =
          candidate.email === row.email
            ? row.userId
            : (await findOrCreateGuestUser(tx, candidate.email, candidate.name)).id;
        const password = hashes[index] === undefined ? {} : { passwordHash: hashes[index] };
        updated.push(await updateRecipient(tx, workflow.id, row.id, { userId, ...attributes(candidate), ...password }));
      }
      return updated;
    });
  }

  async function checkUpdate(dbOrTx: DbOrTx, caller: UserCaller, workflowId: number, body: RecipientUpdate[]) {
    const workflow = await findEditableWorkflow(dbOrTx, caller, workflowId);
    const ids = body.map((entry) => entry.id);
    if (new Set(ids).size !== ids.length)
      throw new AppError('INVALID_REQUEST_BODY', 'A recipient id appears more than once');
    const stored = await findRecipientsInSigningOrder(dbOrTx, workflow.id);
    const byId = new Map(stored.map((row) => [row.id, row]));
    const targets = body.map((entry, index) => {
      const row = byId.get(entry.id);
      if (!row)
        throw new AppError('NOT_FOUND', `Recipient ${entry.id} not found in this workflow`, { index, field: 'id' });
      return row;
    });
    const candidates = body.map((entry, index) => toCandidate(workflow, entry, index));
    if (workflow.sequence === 'SELF')
      candidates.forEach((candidate, index) => assertSelfRowKept(workflow, targets[index], candidate));

    await assertNoFieldsOnCc(dbOrTx, workflow.id, targets, candidates);

    const updatedIds = new Set(ids);
    const slots: Slot[] = [
      ...stored.filter((row) => !row.isHidden && !updatedIds.has(row.id)).map(storedSlot),
      ...candidates.filter((_, index) => !targets[index].isHidden),
    ];
    assertUniqueUnderOrdered(workflow, slots);
    return { workflow, targets, candidates };
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
        throw new AppError('OPERATION_IS_NOT_ALLOWED', "The owner's row of a self-signed workflow cannot be removed");
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
    throw new AppError('OPERATION_IS_NOT_ALLOWED', 'A Power Survey accepts only SIGNER recipients', {
      index,
      field: 'recipientRole',
    });
  }
  const order = recipientOrder(entry.recipientOrder);
  if (workflow.sequence === 'ORDERED' && order === null) {
    throw new AppError('INVALID_RECIPIENT', 'recipientOrder is required when the workflow is ORDERED', {
      index,
      field: 'recipientOrder',
    });
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
  };
}

function attributes(
  candidate: Candidate,
): Required<
  Pick<RecipientValues, 'name' | 'email' | 'role' | 'recipientOrder' | 'color' | 'useDigitalCert' | 'enforceIdentity'>
> {
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
      if (orders.has(slot.order))
        throw new AppError(
          'DUPLICATE_RECIPIENT',
          `Recipient order ${slot.order} is used more than once`,
          where && { ...where, field: 'recipientOrder' },
        );
      orders.add(slot.order);
    }
    if (emails.has(slot.email))
      throw new AppError(
        'DUPLICATE_RECIPIENT',
        `${slot.email} is already a recipient of this workflow`,
        where && { ...where, field: 'emailAddress' },
      );
    emails.add(slot.email);
  }
}

/** A CC fills nothing (fields rule), so a row holding fields cannot become CC until they are moved or removed. */
async function assertNoFieldsOnCc(
  tx: DbOrTx,
  workflowId: number,
  targets: RecipientRow[],
  candidates: Candidate[],
): Promise<void> {
  const becomingCc = candidates.filter((candidate, index) => candidate.role === 'CC' && targets[index].role !== 'CC');
  const withFields = await findRecipientsWithFields(
    tx,
    workflowId,
    becomingCc.map((candidate) => targets[candidate.index].id),
  );
  const blocked = becomingCc.find((candidate) => withFields.has(targets[candidate.index].id));
  if (blocked) {
    throw new AppError(
      'INVALID_RECIPIENT',
      'This recipient has fields; a CC fills nothing, so move or remove its fields before making it CC',
      { index: blocked.index, field: 'recipientRole' },
    );
  }
}

/** RUNTIME.md: a SELF workflow's one row is its owner's, a SIGNER with the owner's email. */
function assertSelfRowKept(workflow: WorkflowRow, row: RecipientRow, candidate: Candidate): void {
  if (row.userId !== workflow.ownerUserId || candidate.email !== row.email || candidate.role !== 'SIGNER') {
    throw new AppError(
      'OPERATION_IS_NOT_ALLOWED',
      "The only recipient of a self-signed workflow is its owner, as a SIGNER with the owner's email",
      { index: candidate.index },
    );
  }
}
