import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { businessApps, memberships, organizations, roles } from '../../src/platform/db/schema/index.ts';

/**
 * Callers of an organization's routes, written directly (the members and roles endpoints are another
 * module's): a member whose ACTIVE role (`roleId`) grants `grants` (module → rights; omitted rights are false here), and a
 * business app's client token acting as the owner.
 */
export async function memberOf(
  t: TestApp,
  owner: TestUser,
  grants: Record<string, Partial<Record<'canView' | 'canAdd' | 'canEdit' | 'canDelete', boolean>>> = {},
): Promise<TestUser & { roleId: number }> {
  const user = await createUser(t);
  const permissions = Object.entries(grants).map(([moduleName, rights]) => ({
    moduleName,
    accessRights: { canView: false, canAdd: false, canEdit: false, canDelete: false, ...rights },
  }));
  const [role] = await t.platform.db
    .insert(roles)
    .values({
      organizationId: owner.organizationId,
      name: `role-${crypto.randomUUID()}`,
      signatureSettings: {
        allowSignElectronic: true,
        allowSignAdvanced: false,
        allowSignQualified: false,
        allowDocSend: true,
        allowDocUseTemplates: true,
        quotaElectronic: 100,
        quotaAdvanced: 0,
        quotaQualified: 0,
      },
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
  return { ...user, organizationId: owner.organizationId, token, roleId: role.id };
}

export async function clientTokenOf(t: TestApp, owner: TestUser): Promise<string> {
  const [app] = await t.platform.db
    .insert(businessApps)
    .values({
      organizationId: owner.organizationId,
      clientId: `client-${crypto.randomUUID()}`,
      appName: `App ${crypto.randomUUID()}`,
      callbackUrl: 'https://partner.example/hook',
      secretHash: 'x',
    })
    .returning();
  return t.platform.tokens.sign(
    { sub: String(owner.userId), type: 'CLIENT', organizationId: owner.organizationId, appId: app.id },
    3600,
  );
}

export async function organizationRow(t: TestApp, organizationId: number) {
  return (await t.platform.db.select().from(organizations).where(eq(organizations.id, organizationId)))[0];
}

/** A draft of `owner` with one signer and one signature field, ready for commence. */
export async function draftToSend(
  t: TestApp,
  owner: TestUser,
  signerEmail = `signer-${crypto.randomUUID()}@example.com`,
) {
  const { workflow, document } = await createDraftWorkflow(t, owner);
  const signer = await createUser(t, { email: signerEmail });
  const row = await insertRecipient(t, workflow.id, { userId: signer.userId, name: 'Sam Signer', email: signer.email });
  await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: row.id,
    fieldType: 'SIGNATURE',
  });
  return { workflow, document, recipient: row, signer };
}
