import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { fields, recipients, workflows } from '../../src/platform/db/schema/index.ts';
import { draftWithRecipients } from '../helpers/ceremony.ts';
import { insertField, type TestUser } from '../helpers/factories.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { addMember, createRole, grant } from '../organizations/org-helpers.ts';

/**
 * A source workflow of `owner`: two signers (Alice, Bob), each with a SIGNATURE field, and a styled TEXT field
 * for Alice on page 1.
 */
export async function sourceWorkflow(
  t: TestApp,
  owner: TestUser,
  options: { sequence?: 'ORDERED' | 'UNORDERED' } = {},
) {
  const draft = await draftWithRecipients(t, owner, {
    sequence: options.sequence ?? 'UNORDERED',
    recipients: [
      { name: 'Alice Signer', fields: [{ fieldType: 'SIGNATURE' }] },
      { name: 'Bob Signer', fields: [{ fieldType: 'SIGNATURE' }] },
    ],
  });
  const text = await insertField(t, {
    workflowId: draft.workflow.id,
    documentId: draft.document.id,
    recipientId: draft.parties[0].row.id,
    fieldType: 'TEXT',
    label: 'Company',
    pageNo: 1,
  });
  await t.platform.db
    .update(fields)
    .set({ styling: { bold: true, fontSize: 14 }, value: 'filled in the source' })
    .where(eq(fields.id, text.id));
  return { ...draft, textFieldId: text.id };
}

export async function createTemplate(t: TestApp, token: string, body: Record<string, unknown>) {
  const res = await t.request('POST', '/organization/v1/templates', { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: number; name: string; folderId: number | null; workflowId: number };
}

export async function workflowOf(t: TestApp, workflowId: number) {
  const [workflow] = await t.platform.db.select().from(workflows).where(eq(workflows.id, workflowId));
  const rows = await t.platform.db
    .select()
    .from(recipients)
    .where(eq(recipients.workflowId, workflowId))
    .orderBy(recipients.id);
  const placed = await t.platform.db.select().from(fields).where(eq(fields.workflowId, workflowId)).orderBy(fields.id);
  return { workflow, recipients: rows, fields: placed };
}

export async function countWorkflows(t: TestApp): Promise<number> {
  return (await t.platform.db.select({ id: workflows.id }).from(workflows)).length;
}

/** A member of the owner's organization whose role grants TEMPLATES with `rights` (none: a role without TEMPLATES). */
export async function templatesMember(
  t: TestApp,
  owner: TestUser,
  rights: Partial<Record<'canView' | 'canAdd' | 'canEdit' | 'canDelete', boolean>> | null,
  name = 'Mia Member',
) {
  const role = await createRole(t, owner, {
    permissions: rights ? [grant('TEMPLATES', rights)] : [grant('USERS', { canView: true })],
  });
  return { role, member: await addMember(t, owner, role.id, name) };
}
