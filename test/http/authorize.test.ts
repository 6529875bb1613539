import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { registerAuthentication } from '../../src/http/authenticate.ts';
import { createMembershipCache } from '../../src/modules/auth/membership-cache.ts';
import { registerErrorHandling } from '../../src/http/error-handler.ts';
import type { AuthPolicy } from '../../src/http/authorize.ts';
import { businessApps, memberships, roles } from '../../src/platform/db/schema/index.ts';

/**
 * Organization-scoped policies, on test-only routes mounted with the service's own authentication and error
 * handling over the test database: no real route needs a module right yet (issues 9 and 10 bring them).
 */
let t: TestApp;
let app: FastifyInstance;
const POLICIES: Record<string, AuthPolicy> = {
  owner: { owner: true },
  'templates-edit': { module: 'TEMPLATES', right: 'canEdit' },
  'users-delete': { module: 'USERS', right: 'canDelete' },
  person: 'person',
  user: 'user',
  'branding-view': { module: 'BRANDING', right: 'canView' },
  'branding-edit': { module: 'BRANDING', right: 'canEdit' },
  'roles-view': { module: 'ROLES', right: 'canView' },
};

beforeAll(async () => {
  t = await createTestApp();
  app = Fastify();
  registerErrorHandling(app);
  registerAuthentication(app, t.platform.tokens, createMembershipCache(t.platform.database));
  for (const [name, policy] of Object.entries(POLICIES)) {
    app.get(`/test/${name}`, { config: { auth: policy } }, async (request) => ({ caller: request.caller }));
  }
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

async function call(name: string, token?: string) {
  const res = await app.inject({
    method: 'GET',
    url: `/test/${name}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.statusCode, body: res.json() };
}

/** A member (not the owner) of `owner`'s organization, with a role holding `permissions` when given; its token acts in that organization. */
async function memberOf(owner: TestUser, permissions?: unknown[], roleStatus = 'ACTIVE') {
  const user = await createUser(t);
  let roleId: number | null = null;
  if (permissions) {
    const [role] = await t.platform.db
      .insert(roles)
      .values({
        organizationId: owner.organizationId,
        name: `role-${crypto.randomUUID()}`,
        status: roleStatus,
        permissions,
        signatureSettings: {
          allowSignElectronic: true,
          allowSignAdvanced: false,
          allowSignQualified: false,
          allowDocSend: true,
          allowDocUseTemplates: true,
          quotaElectronic: 10,
          quotaAdvanced: 0,
          quotaQualified: 0,
        },
      })
      .returning();
    roleId = role.id;
  }
  await t.platform.db
    .insert(memberships)
    .values({ organizationId: owner.organizationId, userId: user.userId, roleId, status: 'ACTIVE' });
  const token = await t.platform.tokens.sign(
    { sub: String(user.userId), type: 'USER', organizationId: owner.organizationId },
    600,
  );
  return { user, token };
}

describe('organization-scoped route policies', () => {
  it('the owner passes the owner policy and every module right; the caller carries the membership', async () => {
    const owner = await createUser(t);
    for (const name of Object.keys(POLICIES)) expect((await call(name, owner.token)).status, name).toBe(200);
    const { body } = await call('owner', owner.token);
    expect(body.caller).toMatchObject({
      kind: 'user',
      userId: owner.userId,
      organizationId: owner.organizationId,
      membership: { isOwner: true, roleId: null, grants: {} },
    });
  });

  it('a member is refused an owner-only route with 403 USER_NOT_HAVE_ACCESS, whatever its role', async () => {
    const owner = await createUser(t);
    const { token } = await memberOf(
      owner,
      ['BILLING_DETAILS', 'BRANDING', 'BUSINESS_APPS', 'TEMPLATES', 'ROLES', 'ORGANIZATIONS', 'USERS'].map(
        (moduleName) => ({ moduleName }),
      ),
    );
    const res = await call('owner', token);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ message: 'USER_NOT_HAVE_ACCESS', httpStatusCode: 403 });
  });

  it('a module right is granted by the role: omitted rights default to true, a right set false or a module not listed is refused', async () => {
    const owner = await createUser(t);
    const granted = await memberOf(owner, [
      { moduleName: 'TEMPLATES' },
      { moduleName: 'USERS', accessRights: { canView: true, canDelete: false } },
    ]);
    expect((await call('templates-edit', granted.token)).status).toBe(200);
    expect((await call('users-delete', granted.token)).status).toBe(403);
    const other = await memberOf(owner, [{ moduleName: 'USERS', accessRights: { canDelete: true } }]);
    expect((await call('templates-edit', other.token)).status).toBe(403);
    expect((await call('users-delete', other.token)).status).toBe(200);
  });

  it('a member without a role, or whose role is not ACTIVE, holds no module right', async () => {
    const owner = await createUser(t);
    expect((await call('templates-edit', (await memberOf(owner)).token)).status).toBe(403);
    expect(
      (await call('templates-edit', (await memberOf(owner, [{ moduleName: 'TEMPLATES' }], 'INACTIVE')).token)).status,
    ).toBe(403);
  });

  it('a role change applies to the next request of an already issued token', async () => {
    const owner = await createUser(t);
    const { user, token } = await memberOf(owner, [{ moduleName: 'TEMPLATES' }]);
    expect((await call('templates-edit', token)).status).toBe(200);
    await t.platform.db
      .update(memberships)
      .set({ roleId: null })
      .where(and(eq(memberships.userId, user.userId), eq(memberships.organizationId, owner.organizationId)));
    expect((await call('templates-edit', token)).status).toBe(403);
  });

  it('a business app acting as the owner passes envelope policies (user, TEMPLATES, BRANDING view) but no administration one', async () => {
    const owner = await createUser(t);
    const [app] = await t.platform.db
      .insert(businessApps)
      .values({
        organizationId: owner.organizationId,
        clientId: `client-${crypto.randomUUID()}`,
        appName: `app-${crypto.randomUUID()}`,
        callbackUrl: 'https://partner.example.com/',
        secretHash: 'x',
        status: true,
      })
      .returning();
    const token = await t.platform.tokens.sign(
      { sub: String(owner.userId), type: 'CLIENT', organizationId: owner.organizationId, appId: app.id },
      600,
    );
    const answers = Object.fromEntries(
      await Promise.all(Object.keys(POLICIES).map(async (name) => [name, (await call(name, token)).status])),
    );
    expect(answers).toEqual({
      owner: 403,
      'templates-edit': 200,
      'users-delete': 403,
      person: 403,
      user: 200,
      'branding-view': 200,
      'branding-edit': 403,
      'roles-view': 403,
    });
    expect((await call('person', token)).body).toMatchObject({ message: 'USER_NOT_HAVE_ACCESS' });
    expect((await call('person', owner.token)).status).toBe(200);
  });

  it('a route with config.writes other than true refuses to register', async () => {
    const bad = Fastify();
    registerAuthentication(bad, t.platform.tokens, createMembershipCache(t.platform.database));
    expect(() =>
      bad.get(`/x/${crypto.randomUUID()}`, { config: { auth: 'user', writes: 'yes' as never } }, async () => ({})),
    ).toThrow(/invalid config.writes/);
    await bad.close();
  });

  it('a guest token gets 403 and no token 401 on organization-scoped routes', async () => {
    const guest = await t.platform.tokens.sign({ sub: '1', type: 'GUEST', recipientId: 1, workflowId: 1 }, 600);
    for (const name of Object.keys(POLICIES)) {
      expect((await call(name, guest)).status, name).toBe(403);
      expect((await call(name)).status, name).toBe(401);
    }
  });

  it('a route whose policy is not one of the documented forms refuses to register', async () => {
    const bad = Fastify();
    registerAuthentication(bad, t.platform.tokens, createMembershipCache(t.platform.database));
    for (const auth of [
      { owner: false },
      { module: 'TEMPLATE', right: 'canEdit' },
      { module: 'TEMPLATES', right: 'canSign' },
      'owner',
    ]) {
      expect(
        () => bad.get(`/x/${crypto.randomUUID()}`, { config: { auth: auth as AuthPolicy } }, async () => ({})),
        JSON.stringify(auth),
      ).toThrow(/invalid config.auth/);
    }
    await bad.close();
  });
});
