import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { organizations, packageChanges, packages } from '../../src/platform/db/schema/index.ts';
import { memberOf, organizationRow } from '../billing/organization-callers.ts';

/**
 * The attack (trust issue, item 4): any account, verified or not, moved itself to the most expensive package and
 * renewed its credits at will, unlocking custom mail, qualified signatures and Power Surveys to 5,000 addresses.
 * RUNTIME.md "Plans and credits belong to the operator": an owner (or a member with BILLING_DETAILS canEdit) takes
 * only a package whose creditsPrice is 0; a priced one answers 403 PAYMENT_REQUIRED and nothing changes, unless
 * BILLING_SELF_SERVICE=true.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

type PublicPackage = { id: number; name: string; credits: number; creditsPrice: number; discount: number };

/** What an attacker sees: the public package list, and the package a cycle of which costs the most. */
async function mostExpensive(app: TestApp): Promise<PublicPackage> {
  const list = await app.request('GET', '/auth/v1/packages?size=100');
  expect(list.status).toBe(200);
  const cost = (p: PublicPackage) => p.credits * p.creditsPrice * (1 - p.discount / 100);
  return [...(list.body.content as PublicPackage[])].sort((a, b) => cost(b) - cost(a))[0];
}

async function billingState(app: TestApp, organizationId: number) {
  const org = await organizationRow(app, organizationId);
  const changes = await app.platform.db
    .select()
    .from(packageChanges)
    .where(eq(packageChanges.organizationId, organizationId));
  return {
    packageId: org.packageId,
    credits: org.credits,
    startedAt: org.packageStartedAt.toISOString(),
    expiresAt: org.packageExpiresAt.toISOString(),
    changes: changes.length,
  };
}

async function expectPaymentRequired(res: { status: number; body: any }) {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body).toMatchObject({ success: false, message: 'PAYMENT_REQUIRED', errorCode: 16011 });
}

describe('a fresh account moving itself to the most expensive package', () => {
  it('the seeded presets: Starter (the sign-up default) is free; Business and Enterprise are priced, Enterprise the most expensive', async () => {
    const rows = await t.platform.db.select().from(packages).where(eq(packages.preset, true));
    expect(rows.filter((r) => r.isDefault).map((r) => [r.name, Number(r.creditsPrice)])).toEqual([['Starter', 0]]);
    expect(
      rows
        .filter((r) => Number(r.creditsPrice) > 0)
        .map((r) => r.name)
        .sort(),
    ).toEqual(['Business', 'Enterprise']);
    expect((await mostExpensive(t)).name).toBe('Enterprise');
  });

  for (const verified of [false, true]) {
    it(`is refused with 403 PAYMENT_REQUIRED (${verified ? 'verified' : 'unverified'} address); renewing a priced package too; nothing changes`, async () => {
      const attacker: TestUser = await createUser(t, { emailVerified: verified });
      const target = await mostExpensive(t);
      const before = await billingState(t, attacker.organizationId);

      await expectPaymentRequired(
        await t.request('PUT', '/auth/v1/package/update', {
          token: attacker.token,
          body: { orgId: attacker.organizationId, pkgId: target.id },
        }),
      );
      // Again and again: the answer does not change, and no cycle is started.
      await expectPaymentRequired(
        await t.request('PUT', '/auth/v1/package/update', {
          token: attacker.token,
          body: { orgId: attacker.organizationId, pkgId: target.id },
        }),
      );
      expect(await billingState(t, attacker.organizationId)).toEqual(before);

      // An organization the operator put on a priced package cannot renew its credits itself either.
      await t.platform.db
        .update(organizations)
        .set({ packageId: target.id, credits: 3 })
        .where(eq(organizations.id, attacker.organizationId));
      const granted = await billingState(t, attacker.organizationId);
      await expectPaymentRequired(
        await t.request('PUT', `/auth/v1/package/renew?orgId=${attacker.organizationId}`, { token: attacker.token }),
      );
      expect(await billingState(t, attacker.organizationId)).toEqual(granted);
    });
  }

  it('a member with BILLING_DETAILS canEdit is held to the same rule; the free package stays self-service', async () => {
    const owner = await createUser(t);
    const editor = await memberOf(t, owner, { BILLING_DETAILS: { canView: true, canEdit: true } });
    const target = await mostExpensive(t);
    const before = await billingState(t, owner.organizationId);
    await expectPaymentRequired(
      await t.request('PUT', '/auth/v1/package/update', {
        token: editor.token,
        body: { orgId: owner.organizationId, pkgId: target.id },
      }),
    );
    expect(await billingState(t, owner.organizationId)).toEqual(before);

    // The free Starter's credits are its yearly allowance: renewing it (or choosing it again) while its cycle runs would
    // make them unlimited, so a new cycle starts only once the running one has ended.
    await t.platform.db.update(organizations).set({ credits: 0 }).where(eq(organizations.id, owner.organizationId));
    const early = await t.request('PUT', `/auth/v1/package/renew?orgId=${owner.organizationId}`, {
      token: editor.token,
    });
    expect(early.status, JSON.stringify(early.body)).toBe(400);
    expect(early.body).toMatchObject({
      message: 'OPERATION_IS_NOT_ALLOWED',
      responseBody: { renewableAt: expect.any(String) },
    });
    const starter = (await organizationRow(t, owner.organizationId)).packageId;
    const again = await t.request('PUT', '/auth/v1/package/update', {
      token: owner.token,
      body: { orgId: owner.organizationId, pkgId: starter },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(400);
    expect((await billingState(t, owner.organizationId)).credits).toBe(0);

    // Once the year is over, renewing the free Starter works without the operator.
    await t.platform.db
      .update(organizations)
      .set({ packageExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(organizations.id, owner.organizationId));
    const renewed = await t.request('PUT', `/auth/v1/package/renew?orgId=${owner.organizationId}`, {
      token: editor.token,
    });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.body).toMatchObject({ package: { name: 'Starter' }, credits: 50, selfService: false });
  });

  it('GET /organization/v1/billing says that self-service is off', async () => {
    const owner = await createUser(t);
    const res = await t.request('GET', '/organization/v1/billing', { token: owner.token });
    expect(res.body.selfService).toBe(false);
  });
});

describe('with BILLING_SELF_SERVICE=true (an installation a company runs for its own teams)', () => {
  let open: TestApp;
  beforeAll(async () => {
    open = await createTestApp({ billingSelfService: true });
  });
  afterAll(async () => open?.close());

  it('an owner chooses and renews any package', async () => {
    const owner = await createUser(open);
    const target = await mostExpensive(open);
    const moved = await open.request('PUT', '/auth/v1/package/update', {
      token: owner.token,
      body: { orgId: owner.organizationId, pkgId: target.id },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ package: { id: target.id }, credits: target.credits, selfService: true });
    await open.platform.db.update(organizations).set({ credits: 1 }).where(eq(organizations.id, owner.organizationId));
    const renewed = await open.request('PUT', `/auth/v1/package/renew?orgId=${owner.organizationId}`, {
      token: owner.token,
    });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.body.credits).toBe(target.credits);
    const changes = await open.platform.db
      .select()
      .from(packageChanges)
      .where(eq(packageChanges.organizationId, owner.organizationId));
    expect(changes.map((c) => [c.action, c.byUserId])).toEqual([
      ['UPDATE', owner.userId],
      ['RENEW', owner.userId],
    ]);
  });
});
