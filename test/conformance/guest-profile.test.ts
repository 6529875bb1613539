import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, type TestUser } from '../helpers/factories.ts';
import { addRecipients, recipientEntry } from '../helpers/recipients.ts';
import { commence, guestFromMail } from '../helpers/signing.ts';
import { organizations, packages, users } from '../../src/platform/db/schema/index.ts';

/*
 * SPEC.md "Guest token": the mobile client redeems the signing code, "then reads the profile, the workflow and its
 * recipients". RUNTIME.md "Who may do what": a guest token reads GET /user/v1/settings/profile as its recipient's
 * profile (the row's name and email; no account settings).
 */

const PROFILE = '/user/v1/settings/profile';
const PASSWORD = 'correct horse battery';

/** A sent workflow of `owner` with one signer, added over HTTP (the service makes the guest's user record). */
async function sentTo(t: TestApp, owner: TestUser, entry: Record<string, unknown>) {
  const { workflow, document } = await createDraftWorkflow(t, owner, { sequence: 'UNORDERED' });
  const [row] = await addRecipients(t, owner.token, workflow.id, [recipientEntry(entry)]);
  await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: row.id,
    fieldType: 'SIGNATURE',
    fieldRequired: true,
  });
  expect((await commence(t, owner, workflow.id)).status).toBe(200);
  return { workflowId: workflow.id, row };
}

describe("a signing link's guest token reads the profile", () => {
  test("as its recipient row: id = the recipient's user id, the row's name and email, the workflow's organization, no account settings", async ({
    app: t,
    owner,
  }) => {
    // Even on a plan that grants cloud import, a guest gets none of its keys.
    const [plan] = await t.platform.db
      .insert(packages)
      .values({
        name: 'Cloud plan guest',
        credits: 10,
        duration: 30,
        servicePlan: 'STANDARD',
        preset: false,
        cloudProviders: ['BOX', 'DRIVE'],
      })
      .returning();
    await t.platform.db
      .update(organizations)
      .set({ packageId: plan.id })
      .where(eq(organizations.id, owner.organizationId));
    const email = `gail-${Date.now()}@example.com`;
    const { row } = await sentTo(t, owner, { name: 'Gail Guest', emailAddress: email });
    const { token, session } = await guestFromMail(t, email);
    const res = await t.request('GET', PROFILE, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [user] = await t.platform.db.select().from(users).where(eq(users.email, email));
    expect(session.userId).toBe(user.id);
    expect(res.body).toEqual({
      id: user.id,
      name: 'Gail Guest',
      email,
      organizationId: owner.organizationId,
      twoFactorEnabled: false,
      emailVerified: false,
      locale: 'en',
      driveClientId: null,
      driveApiKey: null,
      boxAppKey: null,
    });
    expect(row.name).toBe('Gail Guest');
  });

  test("a registered user's row, read through its signing link, shows the row, not the account's settings", async ({
    app: t,
    owner,
  }) => {
    const member = await createUser(t, { name: 'Rita Registered' });
    await t.platform.db
      .update(users)
      .set({ twoFactorEnabled: true, totpSecret: 'JBSWY3DPEHPK3PXP', locale: 'de-CH' })
      .where(eq(users.id, member.userId));
    await sentTo(t, owner, { name: 'Rita Row Name', emailAddress: member.email });
    const { token } = await guestFromMail(t, member.email);
    const res = await t.request('GET', PROFILE, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id: member.userId,
      name: 'Rita Row Name',
      email: member.email,
      organizationId: owner.organizationId,
      twoFactorEnabled: false,
      emailVerified: false,
      locale: 'en',
    });
    expect(res.raw).not.toMatch(/JBSWY3DPEHPK3PXP|de-CH/);
  });

  test('a row with a recipient password: 403 IDENTITY_NOT_VERIFIED until the password is entered, as for the workflow itself', async ({
    app: t,
    owner,
  }) => {
    const email = `pia-${Date.now()}@example.com`;
    const { workflowId } = await sentTo(t, owner, {
      name: 'Pia Protected',
      emailAddress: email,
      recipientPassword: PASSWORD,
    });
    const { token } = await guestFromMail(t, email);
    const gated = await t.request('GET', PROFILE, { token });
    expect(gated.status).toBe(403);
    expect(gated.body).toMatchObject({
      message: 'IDENTITY_NOT_VERIFIED',
      responseBody: { requiredStep: 'RECIPIENT_PASSWORD' },
    });
    expect(gated.raw).not.toContain(email);
    expect(
      (
        await t.request('POST', `/workflow/v1/${workflowId}/identity/verify-password`, {
          token,
          body: { password: PASSWORD },
        })
      ).status,
    ).toBe(200);
    const res = await t.request('GET', PROFILE, { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Pia Protected', email });
  });

  test("a guest token whose row or workflow is gone answers 404; a user's own token still reads its own profile", async ({
    app: t,
    owner,
  }) => {
    const stale = await t.platform.tokens.sign(
      { sub: String(owner.userId), type: 'GUEST', recipientId: 999999, workflowId: 999999 },
      600,
    );
    expect((await t.request('GET', PROFILE, { token: stale })).status).toBe(404);
    const own = await t.request('GET', PROFILE, { token: owner.token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      id: owner.userId,
      email: owner.email,
      organizationId: owner.organizationId,
      emailVerified: true,
    });
  });
});
