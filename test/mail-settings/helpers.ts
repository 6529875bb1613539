import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ACCESS_RIGHTS, ORGANIZATION_MODULES } from '../../src/http/authorize.ts';
import { memberships, organizations, packages, roles } from '../../src/platform/db/schema/index.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import type { TestApp } from '../helpers/test-app.ts';

/** Moves the organization onto a package that allows (or not) custom mail routing. */
export async function setCustomMailPlan(t: TestApp, organizationId: number, allowCustomSmtp: boolean): Promise<void> {
  const [plan] = await t.platform.db
    .insert(packages)
    .values({
      name: `Mail plan ${crypto.randomUUID()}`,
      credits: 100,
      duration: 365,
      servicePlan: 'BUSINESS',
      preset: false,
      allowCustomSmtp,
    })
    .returning();
  await t.platform.db.update(organizations).set({ packageId: plan.id }).where(eq(organizations.id, organizationId));
}

/** An owner whose plan allows custom mail. */
export async function createMailOwner(t: TestApp): Promise<TestUser> {
  const owner = await createUser(t, { name: 'Mail Owner' });
  await setCustomMailPlan(t, owner.organizationId, true);
  return owner;
}

/** A member of the owner's organization whose role grants every right on every module: still not the owner. */
export async function createPowerMember(t: TestApp, owner: TestUser): Promise<{ userId: number; token: string }> {
  const member = await createUser(t, { name: 'Power Member' });
  const [role] = await t.platform.db
    .insert(roles)
    .values({
      organizationId: owner.organizationId,
      name: `all-${crypto.randomUUID()}`,
      signatureSettings: {},
      permissions: ORGANIZATION_MODULES.map((moduleName) => ({
        moduleName,
        accessRights: Object.fromEntries(ACCESS_RIGHTS.map((r) => [r, true])),
      })),
    })
    .returning();
  await t.platform.db
    .insert(memberships)
    .values({ organizationId: owner.organizationId, userId: member.userId, roleId: role.id, status: 'ACTIVE' });
  const token = await t.platform.tokens.sign(
    { sub: String(member.userId), type: 'USER', organizationId: owner.organizationId },
    3600,
  );
  return { userId: member.userId, token };
}

export function guestTokenFor(t: TestApp, userId: number): Promise<string> {
  return t.platform.tokens.sign({ sub: String(userId), type: 'GUEST', recipientId: 1, workflowId: 1 }, 600);
}

/** Valid configurations of every provider (pointing at nothing in particular). */
export const VALID_CONFIGURATIONS = {
  SMTP: {
    SMTP_SERVER: 'smtp.example.com',
    SMTP_PORT: '587',
    SSL_TLS: 'STARTTLS',
    AUTHENTICATION: 'TRUE',
    USER_ID: 'mailer',
    PASSWORD: 'smtp-secret-1',
    EMAIL_FROM: 'contracts@acme.example',
  },
  EMAIL_API: { API_KEY: 'SG.sendgrid-secret-1', EMAIL_FROM: 'contracts@acme.example' },
  CLOUD_MAIL: {
    API_KEY: 'aws-secret-access-key-1',
    ACCESS_KEY: 'AKIAEXAMPLE123456789',
    REGION: 'eu-west-1',
    EMAIL_FROM: 'contracts@acme.example',
  },
  OAUTH2_MAIL: {
    TENANT_ID: 'acme.onmicrosoft.com',
    CLIENT_ID: '11111111-2222-3333-4444-555555555555',
    CLIENT_SECRET: 'graph-secret-1',
    OAUTH_SCOPE: 'https://graph.microsoft.com/.default',
    EMAIL_FROM: 'contracts@acme.example',
  },
} as const satisfies Record<string, Record<string, string>>;

export type Provider = keyof typeof VALID_CONFIGURATIONS;
export const PROVIDERS = Object.keys(VALID_CONFIGURATIONS) as Provider[];
