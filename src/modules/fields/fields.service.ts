import { AppError } from '../../errors.ts';
import type { Caller, UserCaller } from '../../http/authenticate.ts';
import type { Db, DbOrTx, Tx } from '../../platform/db/client.ts';
import {
  findEditableWorkflow,
  findRecipientsInSigningOrder,
  findWorkflowForCaller,
  type RecipientRow,
  type WorkflowRow,
} from '../workflows/workflow-access.ts';
import { checkPlacement, cleanLabel, cleanOptions, cleanStyling, invalidField } from './field-rules.ts';
import {
  copyFieldRows,
  deleteField,
  deleteFieldsOfDocuments as deleteDocumentFields,
  deleteFieldsOfRecipient as deleteRecipientFields,
  findDocuments,
  findRecipientsWithFields as findRecipientsHoldingFields,
  findField,
  findFieldOfDocument,
  findFields,
  insertFields,
  updateField,
  type FieldDocument,
  type FieldRow,
  type FieldValues,
} from './fields.repo.ts';
import {
  ASSET_FIELD_TYPES,
  type FieldBody,
  type FieldListEntry,
  type RequiredBody,
  type Styling,
} from './fields.schemas.ts';

/** What a write is checked against: the workflow (locked, owned, DRAFT), its recipients and the document. */
type Target = { workflow: WorkflowRow; recipients: RecipientRow[]; document: FieldDocument };

/** The attributes a create or update stores. Values are not among them: a signer writes those (fields/save). */
type Placement = Pick<
  FieldValues,
  | 'recipientId'
  | 'pageNo'
  | 'box'
  | 'fieldType'
  | 'fieldRequired'
  | 'label'
  | 'signatureAssetId'
  | 'styling'
  | 'options'
>;

/**
 * Fields placed on a document's pages (SPEC.md "Field", "Fields", editing rule 1). Writes: the workflow owner, DRAFT
 * only, all or nothing. Reads: the owner or a recipient of the workflow; signatureAssetId is shown only to the
 * recipient a field belongs to (SPEC.md signatureAssetId rule 3).
 */
export function createFieldService({ db }: { db: Db }) {
  return { listFields, getField, addField, addFields, updateFieldPlacement, setRequired, removeField };

  /**
   * `all` (all-fields): every field of the workflow. Otherwise (fields): every field for the owner; for a
   * recipient, the fields assigned to the caller's own rows plus unassigned ones (a Power Survey's, which any
   * respondent fills).
   */
  async function listFields(caller: Caller, workflowId: number, options: { all: boolean }): Promise<FieldRow[]> {
    const access = await findWorkflowForCaller(db, caller, workflowId);
    const own = await ownRecipientIds(db, caller, workflowId);
    const rows = await findFields(db, workflowId);
    const visible =
      options.all || access.isOwner ? rows : rows.filter((row) => row.recipientId === null || own.has(row.recipientId));
    return visible.map((row) => masked(row, own));
  }

  async function getField(caller: Caller, workflowId: number, fieldId: number): Promise<FieldRow> {
    await findWorkflowForCaller(db, caller, workflowId);
    const row = await findField(db, workflowId, fieldId);
    if (!row) throw new AppError('NOT_FOUND', 'Field not found');
    return masked(row, await ownRecipientIds(db, caller, workflowId));
  }

  async function addField(caller: UserCaller, documentId: number, body: FieldBody): Promise<FieldRow> {
    const [row] = await addFields(caller, [{ ...body, documentId }], { single: true });
    return row;
  }

  /** Every entry names its document; all documents must belong to one workflow the caller owns. */
  async function addFields(
    caller: UserCaller,
    entries: FieldListEntry[],
    options: { single?: boolean } = {},
  ): Promise<FieldRow[]> {
    return db.transaction(async (tx) => {
      const place = (index: number) => (options.single ? undefined : index);
      const documentIds = [...new Set(entries.map((entry) => entry.documentId))];
      const documents = new Map((await findDocuments(tx, documentIds)).map((doc) => [doc.id, doc]));
      const missing = entries.findIndex((entry) => !documents.has(entry.documentId));
      if (missing >= 0) {
        throw new AppError(
          'NOT_FOUND',
          `Document ${entries[missing].documentId} not found`,
          options.single ? undefined : { index: missing, field: 'documentId' },
        );
      }
      // Access first for every workflow named, so a document of someone else's workflow is a plain 404.
      const workflowIds = [...new Set([...documents.values()].map((doc) => doc.workflowId))].sort((a, b) => a - b);
      const workflows: WorkflowRow[] = [];
      for (const workflowId of workflowIds) workflows.push(await findEditableWorkflow(tx, caller, workflowId));
      if (workflows.length > 1)
        throw new AppError('INVALID_REQUEST_BODY', 'All fields of one call must be on documents of one workflow');
      const workflow = workflows[0];
      const recipients = await findRecipientsInSigningOrder(tx, workflow.id);

      const values = entries.map((entry, index) => {
        const document = documents.get(entry.documentId)!;
        return {
          workflowId: workflow.id,
          documentId: document.id,
          ...placement({ workflow, recipients, document }, entry, null, place(index)),
        };
      });
      const own = ownRowsOf(caller, recipients);
      return (await insertFields(tx, values)).map((row) => masked(row, own));
    });
  }

  /**
   * Replaces the field's placement and attributes. Members left out keep their stored value (null clears label,
   * styling, options, and on a Power Survey recipientId); signatureAssetId follows SPEC.md rule 2. Changing the
   * field type clears a value already saved into it (a SELF owner may have filled it).
   */
  async function updateFieldPlacement(
    caller: UserCaller,
    documentId: number,
    fieldId: number,
    body: FieldBody,
  ): Promise<FieldRow> {
    return db.transaction(async (tx) => {
      const { target, field } = await editableField(tx, caller, documentId, fieldId);
      const values = placement(target, body, field, undefined);
      const cleared = values.fieldType !== field.fieldType ? { value: null, filledAt: null } : {};
      const row = await updateField(tx, field.id, { ...values, ...cleared });
      return masked(row, ownRowsOf(caller, target.recipients));
    });
  }

  async function setRequired(
    caller: UserCaller,
    documentId: number,
    fieldId: number,
    body: RequiredBody,
  ): Promise<FieldRow> {
    return db.transaction(async (tx) => {
      const { target, field } = await editableField(tx, caller, documentId, fieldId);
      const styling = body.styling === undefined ? {} : { styling: cleanStyling(body.styling) };
      const row = await updateField(tx, field.id, { fieldRequired: body.fieldRequired, ...styling });
      return masked(row, ownRowsOf(caller, target.recipients));
    });
  }

  async function removeField(caller: UserCaller, workflowId: number, fieldId: number): Promise<void> {
    await db.transaction(async (tx) => {
      const workflow = await findEditableWorkflow(tx, caller, workflowId);
      const field = await findField(tx, workflow.id, fieldId);
      if (!field) throw new AppError('NOT_FOUND', 'Field not found');
      await deleteField(tx, workflow.id, field.id);
    });
  }

  async function editableField(
    tx: Tx,
    caller: UserCaller,
    documentId: number,
    fieldId: number,
  ): Promise<{ target: Target; field: FieldRow }> {
    const [document] = await findDocuments(tx, [documentId]);
    if (!document) throw new AppError('NOT_FOUND', 'Document not found');
    const workflow = await findEditableWorkflow(tx, caller, document.workflowId);
    const field = await findFieldOfDocument(tx, document.id, fieldId);
    if (!field) throw new AppError('NOT_FOUND', 'Field not found');
    return { target: { workflow, document, recipients: await findRecipientsInSigningOrder(tx, workflow.id) }, field };
  }
}

export type FieldService = ReturnType<typeof createFieldService>;

/**
 * The fields of one workflow copied into another inside the caller's transaction (templates), their documents and
 * recipients mapped old id → new id. Returns old field id → new field id.
 */
export async function copyFields(
  tx: DbOrTx,
  fromWorkflowId: number,
  toWorkflowId: number,
  documentIds: Map<number, number>,
  recipientIds: Map<number, number>,
): Promise<Map<number, number>> {
  return copyFieldRows(tx, fromWorkflowId, toWorkflowId, documentIds, recipientIds);
}

/**
 * The values to store for `body` over `existing` (null on create), after every rule: page and box, recipient,
 * DROPDOWN options, signatureAssetId, styling keys.
 */
function placement(target: Target, body: FieldBody, existing: FieldRow | null, index: number | undefined): Placement {
  const fieldType = body.fieldType;
  checkPlacement(body.pageNo, body.box, target.document.pageSizes, index);

  const recipientId = body.recipientId === undefined ? (existing?.recipientId ?? null) : body.recipientId;
  if (recipientId === null) {
    if (target.workflow.sequence !== 'SURVEY')
      throw invalidField('recipientId is required: name a recipient of this workflow', { index, field: 'recipientId' });
  } else {
    const recipient = target.recipients.find((row) => row.id === recipientId);
    if (!recipient)
      throw invalidField(`Recipient ${recipientId} is not a recipient of this workflow`, {
        index,
        field: 'recipientId',
      });
    if (recipient.role === 'CC')
      throw invalidField('A CC recipient has nothing to fill; assign the field to a SIGNER or APPROVER', {
        index,
        field: 'recipientId',
      });
  }

  let options: string[] | null = null;
  if (fieldType === 'DROPDOWN') {
    options = cleanOptions(body.options === undefined ? (existing?.options as string[] | null) : body.options, index);
  } else if (body.options && body.options.length > 0) {
    throw invalidField('Only a DROPDOWN takes options', { index, field: 'options' });
  }

  // SPEC.md signatureAssetId rule 2: null, zero and negative leave the stored link unchanged.
  const incoming = body.signatureAssetId ?? null;
  const isAssetType = ASSET_FIELD_TYPES.includes(fieldType);
  if (incoming !== null && incoming > 0 && !isAssetType) {
    throw invalidField('signatureAssetId applies only to SIGNATURE, INITIALS and STAMP fields', {
      index,
      field: 'signatureAssetId',
    });
  }
  const signatureAssetId = !isAssetType
    ? null
    : incoming !== null && incoming > 0
      ? incoming
      : (existing?.signatureAssetId ?? null);

  const styling =
    body.styling === undefined ? ((existing?.styling as Styling | null) ?? null) : cleanStyling(body.styling, index);
  const label = body.label === undefined ? (existing?.label ?? null) : cleanLabel(body.label);
  const fieldRequired = body.fieldRequired ?? existing?.fieldRequired ?? false;

  const box = { x: body.box.x, y: body.box.y, width: body.box.width, height: body.box.height };
  return { recipientId, pageNo: body.pageNo, box, fieldType, fieldRequired, label, signatureAssetId, styling, options };
}

/** The recipient rows the caller acts as: the guest token's row, or every row of the caller's user. */
function ownRowsOf(caller: Caller, recipients: RecipientRow[]): Set<number> {
  if (caller.kind === 'guest') return new Set([caller.recipientId]);
  return new Set(recipients.filter((row) => row.userId === caller.userId).map((row) => row.id));
}

async function ownRecipientIds(db: DbOrTx, caller: Caller, workflowId: number): Promise<Set<number>> {
  return ownRowsOf(caller, await findRecipientsInSigningOrder(db, workflowId));
}

/** SPEC.md signatureAssetId rule 3: only the signer the field belongs to sees the link. */
function masked(row: FieldRow, own: Set<number>): FieldRow {
  if (row.recipientId !== null && own.has(row.recipientId)) return row;
  return { ...row, signatureAssetId: null };
}

/** For the recipients module: a removed recipient's fields go with it (the fields table has one writer). */
export async function deleteFieldsOfRecipient(tx: Tx, workflowId: number, recipientId: number): Promise<void> {
  await deleteRecipientFields(tx, workflowId, recipientId);
}

/** For the documents module: the fields of documents it deletes go first (comments on them are unlinked before). */
export async function deleteFieldsOfDocuments(tx: Tx, documentIds: number[]): Promise<void> {
  await deleteDocumentFields(tx, documentIds);
}

/** For the recipients module: which of `recipientIds` hold at least one field. */
export async function findRecipientsWithFields(
  db: DbOrTx,
  workflowId: number,
  recipientIds: number[],
): Promise<Set<number>> {
  return findRecipientsHoldingFields(db, workflowId, recipientIds);
}
