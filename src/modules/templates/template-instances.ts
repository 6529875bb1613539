import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Tx } from '../../platform/db/client.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { copyDocuments } from '../documents/documents.service.ts';
import { copyFields } from '../fields/fields.service.ts';
import { assertRecipientPasswordCount, hashRecipientPasswords } from '../recipients/recipient-passwords.ts';
import { sendWorkflow } from '../signing/send-workflow.ts';
import type { RoutingDeps } from '../signing/routing.ts';
import { findOrCreateGuestUser, userDisplayName } from '../users/users.directory.ts';
import { createDraftWorkflow, type DraftRecipient } from '../workflows/workflow-core.ts';
import type { WorkflowRow } from '../workflows/workflow-access.ts';
import { resolveRecipients, type Slot } from './template-overrides.ts';
import { findSlotRows, findWorkflowRow, insertInstanceFields, type TemplateRow } from './templates.repo.ts';
import { TEMPLATE_NAME_MAX, type RecipientOverride } from './templates.schemas.ts';

/** A template field's key in field drop-off: stable for one snapshot (a new snapshot has new keys). */
export function placeholderKey(snapshotFieldId: number): string {
  return `field-${snapshotFieldId}`;
}

/**
 * Copies a workflow into a new hidden snapshot workflow owned by `ownerUserId`: settings, the slot rows (hidden
 * assistant rows and rows delegated away left out), documents (sharing their content-addressed files) and field
 * placements without values. The snapshot is stored retired (deleted_at), so no workflow endpoint, list or count
 * sees or changes it. Returns its id.
 */
export async function takeSnapshot(
  tx: Tx,
  source: WorkflowRow,
  ownerUserId: number,
): Promise<{ workflowId: number; slots: number }> {
  const rows = await findSlotRows(tx, source.id);
  const recipients: DraftRecipient[] = rows.map((row) => ({
    userId: row.userId,
    name: row.name,
    email: row.email,
    role: row.role,
    recipientOrder: row.recipientOrder,
    color: row.color,
    useDigitalCert: row.useDigitalCert,
    enforceIdentity: row.enforceIdentity,
    passwordHash: row.passwordHash,
  }));
  const { workflow, recipients: created } = await createDraftWorkflow(
    tx,
    {
      ownerUserId,
      organizationId: source.organizationId,
      name: source.name,
      sequence: source.sequence,
      signType: source.signType,
      timeZone: source.timeZone,
      title: source.title,
      message: source.message,
      reminderEnabled: source.reminderEnabled,
      reminderIntervalDays: source.reminderIntervalDays,
      reminderOffsetMinutes: source.reminderOffsetMinutes,
      deletedAt: new Date(),
    },
    recipients,
  );
  const recipientIds = new Map(rows.map((row, index) => [row.id, created[index].id]));
  const documentIds = await copyDocuments(tx, source.id, workflow.id);
  await copyFields(tx, source.id, workflow.id, documentIds, recipientIds);
  return { workflowId: workflow.id, slots: rows.length };
}

/** The template's recipient slots, in order, with their placeholder labels. */
export async function findSlots(tx: Tx | Parameters<typeof findSlotRows>[0], template: TemplateRow): Promise<Slot[]> {
  const labels = new Map(
    (template.recipientLabels as { order: number; label: string }[]).map((entry) => [entry.order, entry.label]),
  );
  return (await findSlotRows(tx, template.workflowId)).map((row, index) => ({
    ...row,
    label: labels.get(index + 1)?.trim() || null,
  }));
}

export type Instantiation = { mode: 'use' | 'apply' | 'dispatch'; overrides: RecipientOverride[] };
/** An instantiation whose override passwords are hashed already: password → its argon2id hash. */
export type PreparedInstantiation = Instantiation & { passwordHashes: Map<string, string> };

/**
 * Hashes the overrides' recipient passwords, at most MAX_RECIPIENT_PASSWORDS_PER_CALL (else 400 RECIPIENT_PASSWORD_LIMIT).
 * Called before the transaction that instantiates: a hash takes about 110 ms, and the transaction must not wait for them.
 */
export async function prepareInstantiation(request: Instantiation): Promise<PreparedInstantiation> {
  const passwords = request.overrides.map((override) => override.recipientPassword);
  assertRecipientPasswordCount(passwords);
  const distinct = [...new Set(passwords.filter((password): password is string => Boolean(password)))];
  const hashes = await hashRecipientPasswords(distinct);
  return { ...request, passwordHashes: new Map(distinct.map((password, index) => [password, hashes[index]!])) };
}

/**
 * A new DRAFT workflow of the caller made from the template (use, apply, dispatch), inside the caller's
 * transaction: its settings, the slots with the overrides applied (each recipient linked to the user holding the
 * email, or a new guest user), copies of the documents and fields, and a Created activity. Dispatch then sends it
 * through sendWorkflow in the same transaction, so either the whole workflow exists and is sent, or nothing does.
 */
export async function instantiate(
  tx: Tx,
  routing: RoutingDeps,
  caller: UserCaller,
  template: TemplateRow,
  request: PreparedInstantiation,
  context: RequestContext,
): Promise<WorkflowRow> {
  const snapshot = await findWorkflowRow(tx, template.workflowId);
  if (!snapshot) throw new AppError('INTERNAL_ERROR', `Template ${template.id} has lost its snapshot`);
  const slots = await findSlots(tx, template);
  const resolved = resolveRecipients(slots, request.overrides, snapshot.sequence, {
    fillPlaceholders: request.mode !== 'use',
  });

  const recipients: DraftRecipient[] = [];
  for (const recipient of resolved) {
    const user = await findOrCreateGuestUser(tx, recipient.email, recipient.name);
    recipients.push({
      userId: user.id,
      name: recipient.name,
      email: recipient.email,
      role: recipient.slot.role,
      recipientOrder: recipient.recipientOrder,
      color: recipient.color,
      useDigitalCert: recipient.useDigitalCert,
      enforceIdentity: recipient.slot.enforceIdentity,
      passwordHash:
        recipient.password === undefined
          ? recipient.slot.passwordHash
          : recipient.password === null
            ? null
            : hashOf(request, recipient.password),
    });
  }
  const { workflow, recipients: created } = await createDraftWorkflow(
    tx,
    {
      ownerUserId: caller.userId,
      organizationId: caller.organizationId,
      name: template.name.slice(0, TEMPLATE_NAME_MAX),
      sequence: snapshot.sequence,
      signType: snapshot.signType,
      timeZone: snapshot.timeZone,
      title: snapshot.title,
      message: snapshot.message,
      reminderEnabled: template.reminderEnabled,
      reminderIntervalDays: template.reminderIntervalDays,
      templateId: template.id,
    },
    recipients,
  );
  const recipientIds = new Map(slots.map((slot, index) => [slot.id, created[index].id]));
  const documentIds = await copyDocuments(tx, snapshot.id, workflow.id);
  const fieldIds = await copyFields(tx, snapshot.id, workflow.id, documentIds, recipientIds);
  await insertInstanceFields(
    tx,
    [...fieldIds].map(([snapshotFieldId, fieldId]) => ({
      fieldId,
      templateId: template.id,
      placeholderKey: placeholderKey(snapshotFieldId),
    })),
  );

  const userName = await userDisplayName(tx, caller.userId, 'The owner');
  await recordActivity(tx, {
    workflowId: workflow.id,
    kind: 'CREATED_FROM_TEMPLATE',
    action: 'Created',
    sentence: `${userName} created the envelope from the template "${template.name}"`,
    userId: caller.userId,
    userName,
    status: workflow.status,
    context,
  });
  if (request.mode === 'dispatch') {
    await sendWorkflow(tx, routing, workflow, caller, { title: snapshot.title, message: snapshot.message }, context);
  }
  return workflow;
}

function hashOf(request: PreparedInstantiation, password: string): string {
  const hash = request.passwordHashes.get(password);
  if (!hash) throw new AppError('INTERNAL_ERROR', 'A recipient password was not hashed before the transaction');
  return hash;
}
