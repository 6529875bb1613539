import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, guestToken, type TestUser } from '../helpers/factories.ts';
import { organizations, packageChanges, packages } from '../../src/platform/db/schema/index.ts';
import { clientTokenOf, draftToSend, memberOf, organizationRow } from './organization-callers.ts';

let t: TestApp;
// These tests are about the owner's self-service (cycles, records, rights) on every package, so priced ones too:
// BILLING_SELF_SERVICE=true. The default, free packages only, is test/security/paid-plan-self-service.test.ts.
beforeAll(async () => {
  t = await createTestApp({ billingSelfService: true });
});
afterAll(async () => t?.close());

const DAY = 24 * 3600 * 1000;

async function presetId(name: string): Promise<number> {
  const [row] = await t.platform.db.select().from(packages).where(eq(packages.name, name));
  return row.id;
}

describe('the preset packages, seeded by migration', () => {
  it('are Starter (the default), Business and Enterprise, with the plan flags other features read', async () => {
    const rows = await t.platform.db.select().from(packages).where(eq(packages.preset, true));
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(Object.keys(byName).sort()).toEqual(['Business', 'Enterprise', 'Starter']);
    expect(rows.filter((r) => r.isDefault).map((r) => r.name)).toEqual(['Starter']);
    expect(byName.Starter).toMatchObject({
      credits: 50,
      allowSharing: true,
      allowCustomSmtp: false,
      powerSurveyRecipientLimit: 25,
      cloudProviders: [],
    });
    expect(byName.Business).toMatchObject({
      credits: 1000,
      allowSharing: true,
      allowCustomSmtp: true,
      powerSurveyRecipientLimit: 500,
      cloudProviders: ['DRIVE', 'BOX'],
    });
    expect(byName.Enterprise).toMatchObject({
      credits: 10000,
      allowCustomSmtp: true,
      quotaAdvanced: 1000,
      quotaQualified: 1000,
      cloudProviders: ['DRIVE', 'BOX'],
    });
  });
});

describe('GET /auth/v1/packages', () => {
  it('is public and paginated', async () => {
    const all = await t.request('GET', '/auth/v1/packages');
    expect(all.status).toBe(200);
    expect(all.body.totalElements).toBe(3);
    expect(all.body.content.map((p: { name: string }) => p.name)).toEqual(['Starter', 'Business', 'Enterprise']);
    expect(all.body.content[1]).toEqual({
      id: await presetId('Business'),
      name: 'Business',
      description: expect.any(String),
      credits: 1000,
      creditsPrice: 0.5,
      discount: 0,
      preset: true,
      duration: 365,
      servicePlan: 'BUSINESS',
      status: 'ACTIVE',
      currencySymbol: '$',
    });
    const second = await t.request('GET', '/auth/v1/packages?page=1&size=1');
    expect(second.body).toMatchObject({ totalElements: 3, content: [{ name: 'Business' }] });
  });

  it('searches name and description ignoring case; LIKE wildcards are literal', async () => {
    expect(
      (await t.request('GET', '/auth/v1/packages?search=BUSI')).body.content.map((p: { name: string }) => p.name),
    ).toEqual(['Business']);
    expect(
      (await t.request('GET', '/auth/v1/packages?search=qualified')).body.content.map((p: { name: string }) => p.name),
    ).toEqual(['Enterprise']);
    expect((await t.request('GET', '/auth/v1/packages?search=%25')).body.totalElements).toBe(0);
    expect((await t.request('GET', '/auth/v1/packages?search=%20%20')).body.totalElements).toBe(3);
  });

  it('refuses a malformed page with 400', async () => {
    for (const query of ['size=0', 'size=1001', 'page=-1', 'page=x', `search=${'a'.repeat(256)}`]) {
      expect((await t.request('GET', `/auth/v1/packages?${query}`)).status, query).toBe(400);
    }
  });
});

describe('GET /organization/v1/billing', () => {
  it('shows the owner the package, credits and expiry', async () => {
    const owner = await createUser(t);
    const res = await t.request('GET', '/organization/v1/billing', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      orgId: owner.organizationId,
      package: { name: 'Starter' },
      credits: 50,
      expired: false,
      servicePlanActive: true,
    });
    expect(Date.parse(res.body.packageExpiresAt) - Date.parse(res.body.packageStartedAt)).toBeGreaterThan(364 * DAY);
  });

  it('needs BILLING_DETAILS canView for a member; 401 without a token, 403 for a guest', async () => {
    const owner = await createUser(t);
    expect(
      (await t.request('GET', '/organization/v1/billing', { token: (await memberOf(t, owner)).token })).status,
    ).toBe(403);
    expect(
      (
        await t.request('GET', '/organization/v1/billing', {
          token: (await memberOf(t, owner, { BRANDING: { canView: true } })).token,
        })
      ).status,
    ).toBe(403);
    const viewer = await memberOf(t, owner, { BILLING_DETAILS: { canView: true } });
    expect((await t.request('GET', '/organization/v1/billing', { token: viewer.token })).body).toMatchObject({
      orgId: owner.organizationId,
    });
    expect((await t.request('GET', '/organization/v1/billing')).status).toBe(401);
    const guest = await guestToken(t, { id: 1, userId: owner.userId, workflowId: 1 });
    expect((await t.request('GET', '/organization/v1/billing', { token: guest })).status).toBe(403);
  });
});

describe('PUT /auth/v1/package/update', () => {
  it('moves the organization to another preset and starts its cycle: its credits, its duration from now, recorded', async () => {
    const owner = await createUser(t);
    await t.platform.db.update(organizations).set({ credits: 7 }).where(eq(organizations.id, owner.organizationId));
    const business = await presetId('Business');
    const before = Date.now();
    const res = await t.request('PUT', '/auth/v1/package/update', {
      token: owner.token,
      body: { orgId: owner.organizationId, pkgId: business },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      orgId: owner.organizationId,
      package: { id: business, name: 'Business' },
      credits: 1000,
      expired: false,
    });
    const org = await organizationRow(t, owner.organizationId);
    expect(org).toMatchObject({ packageId: business, credits: 1000 });
    expect(org.packageExpiresAt.getTime()).toBeGreaterThanOrEqual(before + 365 * DAY);
    expect(org.packageExpiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 365 * DAY);
    const [change] = await t.platform.db
      .select()
      .from(packageChanges)
      .where(eq(packageChanges.organizationId, owner.organizationId));
    expect(change).toMatchObject({
      action: 'UPDATE',
      toPackageId: business,
      creditsBefore: 7,
      creditsAfter: 1000,
      byUserId: owner.userId,
    });
    // The new plan's flags apply at once: the organization may now route its own mail.
    expect(
      (
        await t.platform.db
          .select({ allow: packages.allowCustomSmtp })
          .from(packages)
          .where(eq(packages.id, org.packageId))
      )[0].allow,
    ).toBe(true);
  });

  it('answers 404 for another organization, an unknown package and a custom package', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const business = await presetId('Business');
    const foreign = await t.request('PUT', '/auth/v1/package/update', {
      token: other.token,
      body: { orgId: owner.organizationId, pkgId: business },
    });
    expect(foreign.status).toBe(404);
    expect((await organizationRow(t, owner.organizationId)).packageId).not.toBe(business);
    expect(
      (
        await t.request('PUT', '/auth/v1/package/update', {
          token: owner.token,
          body: { orgId: 2147483647, pkgId: business },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request('PUT', '/auth/v1/package/update', {
          token: owner.token,
          body: { orgId: owner.organizationId, pkgId: 2147483647 },
        })
      ).status,
    ).toBe(404);
    const [custom] = await t.platform.db
      .insert(packages)
      .values({ name: 'Custom deal', credits: 99999, duration: 3650, servicePlan: 'CUSTOM', preset: false })
      .returning();
    const res = await t.request('PUT', '/auth/v1/package/update', {
      token: owner.token,
      body: { orgId: owner.organizationId, pkgId: custom.id },
    });
    expect(res.status).toBe(404);
    expect((await organizationRow(t, owner.organizationId)).credits).toBe(50);
  });

  it('refuses a retired package with 400 PACKAGE_NOT_AVAILABLE (16101)', async () => {
    const owner = await createUser(t);
    const [retired] = await t.platform.db
      .insert(packages)
      .values({ name: 'Legacy', credits: 5, duration: 30, servicePlan: 'LEGACY', preset: true, status: 'INACTIVE' })
      .returning();
    const res = await t.request('PUT', '/auth/v1/package/update', {
      token: owner.token,
      body: { orgId: owner.organizationId, pkgId: retired.id },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: 16101, message: 'PACKAGE_NOT_AVAILABLE' });
    await t.platform.db.delete(packages).where(eq(packages.id, retired.id));
  });

  it('needs BILLING_DETAILS canEdit; a business app, a guest and an anonymous caller are refused', async () => {
    const owner = await createUser(t);
    const body = { orgId: owner.organizationId, pkgId: await presetId('Enterprise') };
    const viewer = await memberOf(t, owner, { BILLING_DETAILS: { canView: true } });
    expect((await t.request('PUT', '/auth/v1/package/update', { token: viewer.token, body })).status).toBe(403);
    expect(
      (await t.request('PUT', '/auth/v1/package/update', { token: (await clientTokenOf(t, owner)).toString(), body }))
        .status,
    ).toBe(403);
    expect((await t.request('PUT', '/auth/v1/package/update', { body })).status).toBe(401);
    const guest = await guestToken(t, { id: 1, userId: owner.userId, workflowId: 1 });
    expect((await t.request('PUT', '/auth/v1/package/update', { token: guest, body })).status).toBe(403);
    expect((await organizationRow(t, owner.organizationId)).credits).toBe(50);
    const editor = await memberOf(t, owner, { BILLING_DETAILS: { canEdit: true } });
    const res = await t.request('PUT', '/auth/v1/package/update', { token: editor.token, body });
    expect(res.status).toBe(200);
    expect(res.body.package.name).toBe('Enterprise');
  });

  it('refuses malformed bodies with 400', async () => {
    const owner = await createUser(t);
    const pkgId = await presetId('Business');
    for (const body of [
      {},
      { orgId: owner.organizationId },
      { pkgId },
      { orgId: String(owner.organizationId), pkgId },
      { orgId: owner.organizationId, pkgId: 0 },
      { orgId: -1, pkgId },
      [],
      'x',
    ]) {
      const res = await t.request('PUT', '/auth/v1/package/update', { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const broken = await t.request('PUT', '/auth/v1/package/update', {
      token: owner.token,
      body: '{"orgId":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
  });
});

describe('PUT /auth/v1/package/renew and the expiry', () => {
  it('an expired package blocks sending and signing (16003) until renewed; the renewal gives one fresh cycle', async () => {
    const owner = await createUser(t);
    await t.platform.db
      .update(organizations)
      .set({ packageExpiresAt: new Date(Date.now() - 1000), credits: 3 })
      .where(eq(organizations.id, owner.organizationId));
    const { workflow } = await draftToSend(t, owner);
    const blocked = await t.request('POST', `/workflow/v1/${workflow.id}/commence`, { token: owner.token, body: {} });
    expect(blocked.status).toBe(400);
    expect(blocked.body).toMatchObject({ errorCode: 16003, errorDescription: 'Package has expired' });
    expect((await t.request('GET', '/organization/v1/billing', { token: owner.token })).body.expired).toBe(true);

    const renewed = await t.request('PUT', `/auth/v1/package/renew?orgId=${owner.organizationId}`, {
      token: owner.token,
    });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.body).toMatchObject({ package: { name: 'Starter' }, credits: 50, expired: false });
    const sent = await t.request('POST', `/workflow/v1/${workflow.id}/commence`, { token: owner.token, body: {} });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect((await organizationRow(t, owner.organizationId)).credits).toBe(49);

    // Renewing again restarts the cycle: the balance is the package's credits again, never more.
    const again = await t.request('PUT', `/auth/v1/package/renew?orgId=${owner.organizationId}`, {
      token: owner.token,
    });
    expect(again.body.credits).toBe(50);
    const changes = await t.platform.db
      .select()
      .from(packageChanges)
      .where(eq(packageChanges.organizationId, owner.organizationId));
    expect(changes.map((c) => [c.action, c.creditsBefore, c.creditsAfter])).toEqual([
      ['RENEW', 3, 50],
      ['RENEW', 49, 50],
    ]);
  });

  it('an inactive service plan answers 500 SERVICE_PLAN_INACTIVE to sending and to a renewal, which does not lift it', async () => {
    const owner = await createUser(t);
    await t.platform.db
      .update(organizations)
      .set({ servicePlanActive: false })
      .where(eq(organizations.id, owner.organizationId));
    const { workflow } = await draftToSend(t, owner);
    const send = await t.request('POST', `/workflow/v1/${workflow.id}/commence`, { token: owner.token, body: {} });
    expect(send.status).toBe(500);
    expect(send.body).toMatchObject({ message: 'SERVICE_PLAN_INACTIVE', errorDescription: 'Service plan inactive' });
    const renew = await t.request('PUT', `/auth/v1/package/renew?orgId=${owner.organizationId}`, {
      token: owner.token,
    });
    expect(renew.status).toBe(500);
    expect(renew.body.errorCode).toBe(16004);
    const update = await t.request('PUT', '/auth/v1/package/update', {
      token: owner.token,
      body: { orgId: owner.organizationId, pkgId: await presetId('Business') },
    });
    expect(update.status).toBe(500);
    expect(await organizationRow(t, owner.organizationId)).toMatchObject({ servicePlanActive: false, credits: 50 });
  });

  it('a retired current package cannot be renewed (16101); another organization is 404; orgId is required', async () => {
    const owner = await createUser(t);
    const other: TestUser = await createUser(t);
    const [retired] = await t.platform.db
      .insert(packages)
      .values({ name: 'Old plan', credits: 5, duration: 30, servicePlan: 'OLD', preset: true })
      .returning();
    await t.platform.db
      .update(organizations)
      .set({ packageId: retired.id })
      .where(eq(organizations.id, owner.organizationId));
    await t.platform.db.update(packages).set({ status: 'INACTIVE' }).where(eq(packages.id, retired.id));
    const res = await t.request('PUT', `/auth/v1/package/renew?orgId=${owner.organizationId}`, { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe(16101);
    expect(
      (await t.request('PUT', `/auth/v1/package/renew?orgId=${owner.organizationId}`, { token: other.token })).status,
    ).toBe(404);
    expect((await t.request('PUT', '/auth/v1/package/renew', { token: owner.token })).status).toBe(400);
    expect((await t.request('PUT', '/auth/v1/package/renew?orgId=abc', { token: owner.token })).status).toBe(400);
    expect((await t.request('PUT', `/auth/v1/package/renew?orgId=${owner.organizationId}`)).status).toBe(401);
    const viewer = await memberOf(t, owner, { BILLING_DETAILS: { canView: true, canEdit: false } });
    expect(
      (await t.request('PUT', `/auth/v1/package/renew?orgId=${owner.organizationId}`, { token: viewer.token })).status,
    ).toBe(403);
    expect(
      (
        await t.request('PUT', `/auth/v1/package/renew?orgId=${owner.organizationId}`, {
          token: await clientTokenOf(t, owner),
        })
      ).status,
    ).toBe(403);
    // Back on a live package, the renewal works and the credits are that package's.
    await t.platform.db
      .update(organizations)
      .set({ packageId: await presetId('Business') })
      .where(eq(organizations.id, owner.organizationId));
    expect(
      (await t.request('PUT', `/auth/v1/package/renew?orgId=${owner.organizationId}`, { token: owner.token })).body
        .credits,
    ).toBe(1000);
  });

  it('two concurrent renewals both succeed and leave one cycle', async () => {
    const owner = await createUser(t);
    const results = await Promise.all(
      [1, 2].map(() =>
        t.request('PUT', `/auth/v1/package/renew?orgId=${owner.organizationId}`, { token: owner.token }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect((await organizationRow(t, owner.organizationId)).credits).toBe(50);
  });
});
