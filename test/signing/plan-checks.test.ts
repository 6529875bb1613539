import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, insertRecipient, guestToken, type TestUser } from '../helpers/factories.ts';
import { pngDataUrl, workflowRow } from '../helpers/ceremony.ts';
import { organizations, recipients, workflows } from '../../src/platform/db/schema/index.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => t?.close());

async function credits(user: TestUser): Promise<number> {
  const [org] = await t.platform.db.select().from(organizations).where(eq(organizations.id, user.organizationId));
  return org.credits;
}

async function selfDraft(owner: TestUser) {
  const { workflow, document, selfRecipient } = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
  const signature = await insertField(t, { workflowId: workflow.id, documentId: document.id, recipientId: selfRecipient!.id, fieldType: 'SIGNATURE' });
  return { workflow, document, signature };
}

describe('the organization plan gates signing', () => {
  it('an expired package blocks signing with 400 PACKAGE_EXPIRED (16003) and nothing is saved', async () => {
    const owner = await createUser(t);
    const { workflow, document, signature } = await selfDraft(owner);
    await t.platform.db.update(organizations).set({ packageExpiresAt: new Date(Date.now() - 1000) }).where(eq(organizations.id, owner.organizationId));
    const res = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, { token: owner.token, body: [{ id: signature.id, type: 'SIGNATURE', value: pngDataUrl() }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: 16003, message: 'PACKAGE_EXPIRED', errorDescription: 'Package has expired' });
    expect((await workflowRow(t, workflow.id)).status).toBe('DRAFT');
  });

  it('an expired package also blocks a guest signer of a sent workflow', async () => {
    const owner = await createUser(t);
    const signer = await createUser(t);
    const { workflow, document } = await createDraftWorkflow(t, owner);
    const row = await insertRecipient(t, workflow.id, { userId: signer.userId, name: 'Sam Signer', email: signer.email });
    const field = await insertField(t, { workflowId: workflow.id, documentId: document.id, recipientId: row.id, fieldType: 'SIGNATURE' });
    await t.platform.db.update(workflows).set({ status: 'SENT', sentAt: new Date() }).where(eq(workflows.id, workflow.id));
    await t.platform.db.update(recipients).set({ status: 'SENT', dispatchedAt: new Date() }).where(eq(recipients.id, row.id));
    await t.platform.db.update(organizations).set({ packageExpiresAt: new Date(Date.now() - 1000) }).where(eq(organizations.id, owner.organizationId));
    const token = await guestToken(t, row);
    const res = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, { token, body: { id: field.id, image: pngDataUrl() } });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe(16003);
  });

  it('completing a self-signed envelope uses one credit', async () => {
    const owner = await createUser(t);
    const before = await credits(owner);
    const { workflow, signature } = await selfDraft(owner);
    const res = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, { token: owner.token, body: { id: signature.id, image: pngDataUrl() } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.workflowStatus).toBe('COMPLETED');
    expect(await credits(owner)).toBe(before - 1);
  });

  it('without a credit the final self-signature is refused with INSUFFICIENT_CREDITS and nothing is kept', async () => {
    const owner = await createUser(t);
    await t.platform.db.update(organizations).set({ credits: 0 }).where(eq(organizations.id, owner.organizationId));
    const { workflow, signature } = await selfDraft(owner);
    const res = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, { token: owner.token, body: { id: signature.id, image: pngDataUrl() } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('INSUFFICIENT_CREDITS');
    const stored = await workflowRow(t, workflow.id);
    expect(stored.status).toBe('DRAFT');
    const fieldsRes = await t.request('GET', `/workflow/v1/${workflow.id}/fields/${signature.id}`, { token: owner.token });
    expect(fieldsRes.body.value).toBeNull();
  });
});
