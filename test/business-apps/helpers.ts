import crypto from 'node:crypto';
import { expect } from 'vitest';
import { memberships, roles } from '../../src/platform/db/schema/index.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import type { TestApp } from '../helpers/test-app.ts';

export type ModuleRights = { canView?: boolean; canAdd?: boolean; canEdit?: boolean; canDelete?: boolean };

/**
 * A user who is an ACTIVE member of `owner`'s organization through a role granting `permissions`
 * (SPEC.md's `[{moduleName, accessRights}]`), with a USER token for that organization.
 */
export async function memberOf(
  t: TestApp,
  owner: TestUser,
  permissions: { moduleName: string; accessRights: ModuleRights }[],
): Promise<TestUser> {
  const user = await createUser(t);
  const [role] = await t.platform.db
    .insert(roles)
    .values({
      organizationId: owner.organizationId,
      name: `Role ${crypto.randomBytes(4).toString('hex')}`,
      signatureSettings: {},
      permissions,
    })
    .returning();
  await t.platform.db
    .insert(memberships)
    .values({ organizationId: owner.organizationId, userId: user.userId, roleId: role.id, status: 'ACTIVE' });
  const token = await t.platform.tokens.sign(
    { sub: String(user.userId), type: 'USER', organizationId: owner.organizationId },
    3600,
  );
  return { ...user, organizationId: owner.organizationId, token };
}

export function expectError(res: { status: number; body: any }, status: number, message: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ httpStatusCode: status, success: false, message });
}

let counter = 0;

/** A registration body with a fresh client id and app name. */
export function appBody(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const suffix = `${counter}-${crypto.randomBytes(3).toString('hex')}`;
  return {
    clientId: `partner-${suffix}`,
    appName: `Partner ${suffix}`,
    callbackUrl: 'https://partner.example.com/hooks',
    status: true,
    ...overrides,
  };
}

/** POST /organization/v1/apps as `token`, expecting 200. */
export async function registerApp(t: TestApp, token: string, overrides: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/organization/v1/apps', { token, body: appBody(overrides) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    id: number;
    clientId: string;
    appName: string;
    callbackUrl: string;
    status: boolean;
    clientSecret: string;
    webhookSecret: string;
  };
}

/** grant CLIENT_CREDENTIALS for `email`; answers the raw response. */
export function clientSignin(t: TestApp, app: { clientId: string; clientSecret: string }, email: string) {
  return t.request('POST', '/auth/v1/signin', {
    body: { grant_type: 'CLIENT_CREDENTIALS', client_id: app.clientId, client_secret: app.clientSecret, email },
  });
}
