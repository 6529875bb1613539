import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import {
  createDraftWorkflow,
  createUser,
  insertField,
  insertRecipient,
  guestToken,
  type TestUser,
} from '../helpers/factories.ts';
import { pngDataUrl, recipientRow, sentEnvelope, workflowRow } from '../helpers/ceremony.ts';
import {
  memberships,
  organizations,
  packages,
  recipients,
  roles,
  workflows,
} from '../../src/platform/db/schema/index.ts';
import {
  allowsCustomMail,
  cloudProvidersGranted,
  surveyRecipientLimit,
} from '../../src/modules/billing/entitlements.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

async function credits(user: TestUser): Promise<number> {
  const [org] = await t.platform.db.select().from(organizations).where(eq(organizations.id, user.organizationId));
  return org.credits;
}

async function selfDraft(owner: TestUser) {
  const { workflow, document, selfRecipient } = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
  const signature = await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: selfRecipient!.id,
    fieldType: 'SIGNATURE',
  });
  return { workflow, document, signature };
}

describe('the organization plan gates signing', () => {
  it('an expired package blocks signing with 400 PACKAGE_EXPIRED (16003) and nothing is saved', async () => {
    const owner = await createUser(t);
    const { workflow, document, signature } = await selfDraft(owner);
    await t.platform.db
      .update(organizations)
      .set({ packageExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(organizations.id, owner.organizationId));
    const res = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, {
      token: owner.token,
      body: [{ id: signature.id, type: 'SIGNATURE', value: pngDataUrl() }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      errorCode: 16003,
      message: 'PACKAGE_EXPIRED',
      errorDescription: 'Package has expired',
    });
    expect((await workflowRow(t, workflow.id)).status).toBe('DRAFT');
  });

  it('an expired package also blocks a guest signer of a sent workflow', async () => {
    const owner = await createUser(t);
    const signer = await createUser(t);
    const { workflow, document } = await createDraftWorkflow(t, owner);
    const row = await insertRecipient(t, workflow.id, {
      userId: signer.userId,
      name: 'Sam Signer',
      email: signer.email,
    });
    const field = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: row.id,
      fieldType: 'SIGNATURE',
    });
    await t.platform.db
      .update(workflows)
      .set({ status: 'SENT', sentAt: new Date() })
      .where(eq(workflows.id, workflow.id));
    await t.platform.db
      .update(recipients)
      .set({ status: 'SENT', dispatchedAt: new Date() })
      .where(eq(recipients.id, row.id));
    await t.platform.db
      .update(organizations)
      .set({ packageExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(organizations.id, owner.organizationId));
    const token = await guestToken(t, row);
    const res = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token,
      body: { id: field.id, image: pngDataUrl() },
    });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe(16003);
  });

  it('completing a self-signed envelope uses one credit', async () => {
    const owner = await createUser(t);
    const before = await credits(owner);
    const { workflow, signature } = await selfDraft(owner);
    const res = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: owner.token,
      body: { id: signature.id, image: pngDataUrl() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.workflowStatus).toBe('COMPLETED');
    expect(await credits(owner)).toBe(before - 1);
  });

  it('without a credit the final self-signature is refused with INSUFFICIENT_CREDITS and nothing is kept', async () => {
    const owner = await createUser(t);
    await t.platform.db.update(organizations).set({ credits: 0 }).where(eq(organizations.id, owner.organizationId));
    const { workflow, signature } = await selfDraft(owner);
    const res = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: owner.token,
      body: { id: signature.id, image: pngDataUrl() },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('INSUFFICIENT_CREDITS');
    const stored = await workflowRow(t, workflow.id);
    expect(stored.status).toBe('DRAFT');
    const fieldsRes = await t.request('GET', `/workflow/v1/${workflow.id}/fields/${signature.id}`, {
      token: owner.token,
    });
    expect(fieldsRes.body.value).toBeNull();
  });
});

describe('the organization plan gates signing and sending', () => {
  it('an inactive service plan refuses signing with 500 SERVICE_PLAN_INACTIVE, a billing state', async () => {
    const owner = await createUser(t);
    const { document, signature } = await selfDraft(owner);
    await t.platform.db
      .update(organizations)
      .set({ servicePlanActive: false })
      .where(eq(organizations.id, owner.organizationId));
    const res = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, {
      token: owner.token,
      body: [{ id: signature.id, type: 'SIGNATURE', value: pngDataUrl() }],
    });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ message: 'SERVICE_PLAN_INACTIVE', errorDescription: 'Service plan inactive' });
  });

  it('an expired package blocks sending with 16003 and takes no credit', async () => {
    const owner = await createUser(t);
    const { workflow, document } = await createDraftWorkflow(t, owner);
    const row = await insertRecipient(t, workflow.id, {
      userId: (await createUser(t)).userId,
      name: 'Sam Signer',
      email: 'sam-expired@example.com',
    });
    await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: row.id,
      fieldType: 'SIGNATURE',
    });
    await t.platform.db
      .update(organizations)
      .set({ packageExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(organizations.id, owner.organizationId));
    const before = await credits(owner);
    const res = await t.request('POST', `/workflow/v1/${workflow.id}/commence`, { token: owner.token, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe(16003);
    expect(await credits(owner)).toBe(before);
  });
});

/** Makes `user` an ACTIVE member of `organizationId`, with a role whose electronic quota is `quotaElectronic` when given. */
async function joinOrganization(user: TestUser, organizationId: number, quotaElectronic?: number) {
  let roleId: number | null = null;
  if (quotaElectronic !== undefined) {
    const [role] = await t.platform.db
      .insert(roles)
      .values({
        organizationId,
        name: `signers-${crypto.randomUUID()}`,
        signatureSettings: {
          allowSignElectronic: true,
          allowSignAdvanced: false,
          allowSignQualified: false,
          allowDocSend: true,
          allowDocUseTemplates: true,
          quotaElectronic,
          quotaAdvanced: 0,
          quotaQualified: 0,
        },
      })
      .returning();
    roleId = role.id;
  }
  const [existing] = await t.platform.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, user.userId)));
  if (existing) await t.platform.db.update(memberships).set({ roleId }).where(eq(memberships.id, existing.id));
  else
    await t.platform.db.insert(memberships).values({ organizationId, userId: user.userId, roleId, status: 'ACTIVE' });
}

async function usedElectronic(userId: number, organizationId: number): Promise<number | undefined> {
  const [row] = await t.platform.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row?.usedElectronic;
}

/**
 * Quotas count one signature per finished signer per workflow, against the signer's membership in the
 * workflow's organization (SPEC.md Limits: per user, per role).
 */
describe('per-user signature quotas', () => {
  it('a member signing counts once per workflow, however many calls it takes', async () => {
    const owner = await createUser(t);
    const {
      workflow,
      document,
      alice,
      fields: [date, signature],
      aliceToken,
    } = await sentEnvelope(t, owner, [{ fieldType: 'DATE', fieldRequired: true }, { fieldType: 'SIGNATURE' }]);
    await joinOrganization({ userId: alice.userId } as TestUser, owner.organizationId);
    const first = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, {
      token: aliceToken,
      body: [{ id: date.id, type: 'DATE', value: '2026-01-01' }],
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(await usedElectronic(alice.userId, owner.organizationId)).toBe(0);
    const sign = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: aliceToken,
      body: { id: signature.id, image: pngDataUrl() },
    });
    expect(sign.status, JSON.stringify(sign.body)).toBe(200);
    expect(sign.body.recipientStatus).toBe('SIGNED');
    expect(await usedElectronic(alice.userId, owner.organizationId)).toBe(1);
  });

  it("a signer who is not a member of the workflow's organization has no quota there and spends none of its own", async () => {
    const owner = await createUser(t);
    const { workflow, bob, bobSignature, bobToken } = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    const [bobOwn] = await t.platform.db.select().from(memberships).where(eq(memberships.userId, bob.userId));
    const res = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: bobToken,
      body: { id: bobSignature.id, image: pngDataUrl() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await usedElectronic(bob.userId, owner.organizationId)).toBeUndefined();
    expect(await usedElectronic(bob.userId, bobOwn.organizationId)).toBe(0);
  });

  it("over the role's quota the finishing signature is refused with SPEC.md's description, the qualifier in responseBody, and nothing is kept", async () => {
    const owner = await createUser(t);
    await joinOrganization(owner, owner.organizationId, 1);
    const first = await selfDraft(owner);
    const ok = await t.request('POST', `/workflow/v1/${first.workflow.id}/sign`, {
      token: owner.token,
      body: { id: first.signature.id, image: pngDataUrl() },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const before = await credits(owner);
    const second = await selfDraft(owner);
    const res = await t.request('POST', `/workflow/v1/${second.workflow.id}/sign`, {
      token: owner.token,
      body: { id: second.signature.id, image: pngDataUrl() },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      errorCode: 16002,
      message: 'SIGNATURE_QUOTA_EXCEEDED',
      errorDescription: 'Electronic, Advanced or Qualified signature quota exceeded',
      responseBody: { qualifier: 'ELECTRONIC', quota: 1, used: 1 },
    });
    expect((await workflowRow(t, second.workflow.id)).status).toBe('DRAFT');
    expect(await credits(owner)).toBe(before);
    expect(await usedElectronic(owner.userId, owner.organizationId)).toBe(1);
  });

  it("without a role the package's quota applies", async () => {
    const owner = await createUser(t);
    const [plan] = await t.platform.db
      .select({ quota: packages.quotaElectronic })
      .from(packages)
      .innerJoin(organizations, eq(organizations.packageId, packages.id))
      .where(eq(organizations.id, owner.organizationId));
    await t.platform.db
      .update(memberships)
      .set({ usedElectronic: plan.quota })
      .where(eq(memberships.userId, owner.userId));
    const { workflow, signature } = await selfDraft(owner);
    const res = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: owner.token,
      body: { id: signature.id, image: pngDataUrl() },
    });
    expect(res.status).toBe(400);
    expect(res.body.responseBody).toMatchObject({ qualifier: 'ELECTRONIC', quota: plan.quota });
  });

  it('an exhausted quota of one member does not stop another signer of the same workflow', async () => {
    const owner = await createUser(t);
    const {
      workflow,
      alice,
      bob,
      fields: [aliceSignature],
      bobSignature,
      aliceToken,
      bobToken,
    } = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    await joinOrganization({ userId: alice.userId } as TestUser, owner.organizationId, 0);
    const refused = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: aliceToken,
      body: { id: aliceSignature.id, image: pngDataUrl() },
    });
    expect(refused.status).toBe(400);
    expect((await recipientRow(t, alice.id)).status).toBe('SENT');
    const signed = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: bobToken,
      body: { id: bobSignature.id, image: pngDataUrl() },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect((await recipientRow(t, bob.id)).status).toBe('SIGNED');
  });
});

describe('plan flags read by other modules', () => {
  it("custom mail routing and the survey recipient limit follow the organization's package", async () => {
    const owner = await createUser(t);
    const [business] = await t.platform.db.select().from(packages).where(eq(packages.name, 'Business'));
    expect(await allowsCustomMail(t.platform.db, owner.organizationId)).toBe(false);
    expect(await surveyRecipientLimit(t.platform.db, owner.organizationId)).toBe(25);
    await t.platform.db
      .update(organizations)
      .set({ packageId: business.id })
      .where(eq(organizations.id, owner.organizationId));
    expect(await allowsCustomMail(t.platform.db, owner.organizationId)).toBe(true);
    expect(await surveyRecipientLimit(t.platform.db, owner.organizationId)).toBe(500);
  });

  it('no preset package grants a cloud-import provider; a package that does grants exactly its own', async () => {
    const owner = await createUser(t);
    expect(await cloudProvidersGranted(t.platform.db, owner.organizationId)).toEqual([]);
    const [custom] = await t.platform.db
      .insert(packages)
      .values({
        name: 'Custom',
        credits: 10,
        duration: 30,
        servicePlan: 'CUSTOM',
        preset: false,
        cloudProviders: ['BOX'],
      })
      .returning();
    await t.platform.db
      .update(organizations)
      .set({ packageId: custom.id })
      .where(eq(organizations.id, owner.organizationId));
    expect(await cloudProvidersGranted(t.platform.db, owner.organizationId)).toEqual(['BOX']);
  });
});
