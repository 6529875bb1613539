import { describe, expect } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  createDraftWorkflow,
  createUser,
  guestToken,
  insertField,
  insertRecipient,
  type TestUser,
} from '../helpers/factories.ts';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { pngDataUrl, recipientRow, sentEnvelope, workflowRow } from '../helpers/ceremony.ts';
import { memberships, organizations, recipients } from '../../src/platform/db/schema/index.ts';
import { assertMayUseTemplates, signatureAllowance } from '../../src/modules/billing/entitlements.service.ts';
import { addMember, ALL_ALLOWED, createRole } from './org-helpers.ts';

async function credits(t: TestApp, organizationId: number): Promise<number> {
  const [org] = await t.platform.db.select().from(organizations).where(eq(organizations.id, organizationId));
  return org.credits;
}

/** A member's draft, ready to send: one signer with a SIGNATURE field. */
async function readyDraft(t: TestApp, sender: TestUser) {
  const { workflow, document } = await createDraftWorkflow(t, sender);
  const signer = await createUser(t);
  const row = await insertRecipient(t, workflow.id, { userId: signer.userId, name: 'Sam Signer', email: signer.email });
  await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: row.id,
    fieldType: 'SIGNATURE',
  });
  return workflow;
}

describe('allowDocSend', () => {
  test('a member whose role forbids sending is refused (403 ROLE_SEND_NOT_ALLOWED, no credit taken); allowed once the role changes', async ({
    app: t,
  }) => {
    const owner = await createUser(t);
    const role = await createRole(t, owner, {
      name: 'Readers',
      signatureSettings: { ...ALL_ALLOWED, allowDocSend: false },
    });
    const member = await addMember(t, owner, role.id);
    const workflow = await readyDraft(t, member);
    const before = await credits(t, owner.organizationId);
    const refused = await t.request('POST', `/workflow/v1/${workflow.id}/commence`, { token: member.token, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: 'ROLE_SEND_NOT_ALLOWED', errorCode: 17006 });
    expect((await workflowRow(t, workflow.id)).status).toBe('DRAFT');
    expect(await credits(t, owner.organizationId)).toBe(before);

    // The owner (no role) and a member without a role send freely.
    const ownerDraft = await readyDraft(t, owner);
    expect(
      (await t.request('POST', `/workflow/v1/${ownerDraft.id}/commence`, { token: owner.token, body: {} })).status,
    ).toBe(200);
    await t.request('PUT', `/user/v1/roles/${role.id}`, {
      token: owner.token,
      body: { name: 'Readers', signatureSettings: ALL_ALLOWED },
    });
    const sent = await t.request('POST', `/workflow/v1/${workflow.id}/commence`, { token: member.token, body: {} });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(await credits(t, owner.organizationId)).toBe(before - 2);
  });

  test('deactivating a role does not lift its restrictions', async ({ app: t }) => {
    const owner = await createUser(t);
    const role = await createRole(t, owner, { signatureSettings: { ...ALL_ALLOWED, allowDocSend: false } });
    const member = await addMember(t, owner, role.id);
    await t.request('PUT', `/user/v1/roles/${role.id}`, {
      token: owner.token,
      body: { name: 'Off', status: 'DISABLED', signatureSettings: { ...ALL_ALLOWED, allowDocSend: false } },
    });
    const workflow = await readyDraft(t, member);
    expect(
      (await t.request('POST', `/workflow/v1/${workflow.id}/commence`, { token: member.token, body: {} })).status,
    ).toBe(403);
  });
});

describe('allowSignElectronic and quotas at signing', () => {
  async function memberSigner(t: TestApp, owner: TestUser, userId: number, settings: Record<string, unknown>) {
    const role = await createRole(t, owner, { signatureSettings: { ...ALL_ALLOWED, ...settings } });
    await t.platform.db
      .insert(memberships)
      .values({ organizationId: owner.organizationId, userId, roleId: role.id, status: 'ACTIVE' });
    return role;
  }

  test('a member whose role forbids electronic signatures cannot finish signing (403, nothing kept); others of the workflow can', async ({
    app: t,
  }) => {
    const owner = await createUser(t);
    const {
      workflow,
      alice,
      bob,
      fields: [signature],
      bobSignature,
      aliceToken,
      bobToken,
    } = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    await memberSigner(t, owner, alice.userId, { allowSignElectronic: false });
    const refused = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: aliceToken,
      body: { id: signature.id, image: pngDataUrl() },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      message: 'ROLE_SIGNATURE_NOT_ALLOWED',
      errorCode: 17008,
      responseBody: { qualifier: 'ELECTRONIC' },
    });
    expect((await recipientRow(t, alice.id)).status).toBe('SENT');
    const [field] = (
      await t.request('GET', `/workflow/v1/${workflow.id}/all-fields`, { token: owner.token })
    ).body.filter((f: any) => f.id === signature.id);
    expect(field.value).toBeNull();
    const ok = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: bobToken,
      body: { id: bobSignature.id, image: pngDataUrl() },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await recipientRow(t, bob.id)).status).toBe('SIGNED');
  });

  test("the role's quota is counted at signing, refused with SPEC.md's error once used up, and renewal restores it", async ({
    app: t,
  }) => {
    const owner = await createUser(t);
    const first = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    await memberSigner(t, owner, first.alice.userId, { quotaElectronic: 1 });
    expect(
      (
        await t.request('POST', `/workflow/v1/${first.workflow.id}/sign`, {
          token: first.aliceToken,
          body: { id: first.fields[0].id, image: pngDataUrl() },
        })
      ).status,
    ).toBe(200);
    const [used] = await t.platform.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, first.alice.userId), eq(memberships.organizationId, owner.organizationId)));
    expect(used.usedElectronic).toBe(1);
    expect(
      await signatureAllowance(
        t.platform.db,
        { organizationId: owner.organizationId, userId: first.alice.userId },
        'ELECTRONIC',
      ),
    ).toEqual({ allowed: false, remaining: 0 });

    // The same person signs a second workflow of the organization.
    const second = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    await t.platform.db
      .update(recipients)
      .set({ userId: first.alice.userId })
      .where(eq(recipients.id, second.alice.id));
    const token = await guestToken(t, { ...second.alice, userId: first.alice.userId });
    const refused = await t.request('POST', `/workflow/v1/${second.workflow.id}/sign`, {
      token,
      body: { id: second.fields[0].id, image: pngDataUrl() },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      message: 'SIGNATURE_QUOTA_EXCEEDED',
      errorDescription: 'Electronic, Advanced or Qualified signature quota exceeded',
      responseBody: { qualifier: 'ELECTRONIC', quota: 1, used: 1 },
    });

    const renewed = await t.request('PUT', '/organization/v1/users/renew', {
      token: owner.token,
      body: { userId: first.alice.userId, qualifiers: ['ELECTRONIC'] },
    });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.body.usedElectronic).toBe(0);
    expect(
      (
        await t.request('POST', `/workflow/v1/${second.workflow.id}/sign`, {
          token,
          body: { id: second.fields[0].id, image: pngDataUrl() },
        })
      ).status,
    ).toBe(200);
  });
});

describe('allowDocUseTemplates (for the templates module)', () => {
  test('refuses a member whose role forbids templates; the owner, members without a role and outsiders pass', async ({
    app: t,
  }) => {
    const owner = await createUser(t);
    const role = await createRole(t, owner, { signatureSettings: { ...ALL_ALLOWED, allowDocUseTemplates: false } });
    const member = await addMember(t, owner, role.id);
    const free = await addMember(t, owner, null, 'Fred Free');
    await expect(assertMayUseTemplates(t.platform.db, owner.organizationId, member.userId)).rejects.toMatchObject({
      code: 'ROLE_TEMPLATES_NOT_ALLOWED',
      status: 403,
    });
    await expect(assertMayUseTemplates(t.platform.db, owner.organizationId, owner.userId)).resolves.toBeUndefined();
    await expect(assertMayUseTemplates(t.platform.db, owner.organizationId, free.userId)).resolves.toBeUndefined();
    expect(
      await signatureAllowance(t.platform.db, { organizationId: owner.organizationId, userId: 999999 }, 'QUALIFIED'),
    ).toEqual({ allowed: true, remaining: null });
  });
});
