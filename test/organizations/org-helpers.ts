import crypto from 'node:crypto';
import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { organizations } from '../../src/platform/db/schema/index.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import type { TestApp } from '../helpers/test-app.ts';

export const ALL_ALLOWED = {
  allowSignElectronic: true,
  allowSignAdvanced: true,
  allowSignQualified: true,
  allowDocSend: true,
  allowDocUseTemplates: true,
  quotaElectronic: 100,
  quotaAdvanced: 10,
  quotaQualified: 5,
};

/** A role body; permissions none unless given. */
export function roleBody(overrides: Record<string, unknown> = {}) {
  return {
    name: `Role ${crypto.randomBytes(3).toString('hex')}`,
    description: 'A role',
    signatureSettings: ALL_ALLOWED,
    ...overrides,
  };
}

export async function createRole(
  t: TestApp,
  owner: TestUser,
  overrides: Record<string, unknown> = {},
): Promise<{ id: number; name: string }> {
  const res = await t.request('POST', '/user/v1/roles', { token: owner.token, body: roleBody(overrides) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/**
 * A registered user made an ACTIVE member of the owner's organization over HTTP (invite, accept), with a token
 * acting in that organization (as a sign-in after accepting would give).
 */
export async function addMember(
  t: TestApp,
  owner: TestUser,
  roleId: number | null = null,
  name = 'Mia Member',
): Promise<TestUser> {
  const user = await createUser(t, { name });
  const invited = await t.request('POST', '/organization/v1/user', {
    token: owner.token,
    body: { name, emailAddress: user.email, role: roleId },
  });
  expect(invited.status, JSON.stringify(invited.body)).toBe(200);
  const orgName = await organizationName(t, owner);
  const accepted = await t.request('PUT', '/organization/v1/invite', {
    token: user.token,
    body: { orgNames: [orgName], inviteStatus: 'ACCEPTED' },
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  const token = await t.platform.tokens.sign(
    { sub: String(user.userId), type: 'USER', organizationId: owner.organizationId },
    3600,
  );
  return { ...user, organizationId: owner.organizationId, token };
}

export async function organizationName(t: TestApp, user: { organizationId: number }): Promise<string> {
  const [row] = await t.platform.db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, user.organizationId));
  return row.name;
}

/** USERS / ROLES grants for a role's permissions. */
export function grant(
  moduleName: string,
  rights: Partial<Record<'canView' | 'canAdd' | 'canEdit' | 'canDelete', boolean>> = {},
) {
  return { moduleName, accessRights: { canView: false, canAdd: false, canEdit: false, canDelete: false, ...rights } };
}
