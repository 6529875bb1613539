import { and, eq } from 'drizzle-orm';
import { test as base } from '../helpers/fixtures.ts';
import { startCscServer, type CscTestServer } from '../helpers/csc-server.ts';
import { createDraftWorkflow, insertField, type TestUser } from '../helpers/factories.ts';
import {
  documents,
  fields,
  memberships,
  organizations,
  packages,
  signerRevisions,
} from '../../src/platform/db/schema/index.ts';
import type { TestApp } from '../helpers/test-app.ts';
import type { Config } from '../../src/config.ts';

/**
 * Fixtures of the remote-signing tests: a CSC test provider (file-scoped) and the app configured for it
 * (CSC_BASE_URL and its client, OUTBOUND_ALLOW_PRIVATE for the loopback provider, a 1.5 s provider timeout).
 */
export const test = base.extend<{ csc: CscTestServer; appConfig: Partial<Config> }>({
  csc: [
    async ({}, use) => {
      const server = await startCscServer({ redirectUris: ['http://localhost:8080/csc/callback'] });
      await use(server);
      await server.close();
    },
    { scope: 'file' },
  ],
  appConfig: [
    async ({ csc }, use) => {
      await use({
        outboundAllowPrivate: true,
        csc: { baseUrl: csc.url, clientId: csc.clientId, clientSecret: csc.clientSecret, timeoutMs: 1500 },
      });
    },
    { scope: 'file' },
  ],
});

/** Moves the user's organization to the preset package that offers advanced and qualified signatures. */
export async function useEnterprisePlan(t: TestApp, user: TestUser): Promise<void> {
  const [enterprise] = await t.platform.db
    .select({ id: packages.id })
    .from(packages)
    .where(and(eq(packages.name, 'Enterprise'), eq(packages.preset, true)));
  await t.platform.db
    .update(organizations)
    .set({ packageId: enterprise.id })
    .where(eq(organizations.id, user.organizationId));
}

/** A SELF workflow of `owner` (its DRAFT is signed by the owner's token) with one required DIGITAL_SIGNATURE field. */
export async function selfWorkflowWithDigitalField(t: TestApp, owner: TestUser, name = 'Remote deal') {
  const { workflow, document, selfRecipient } = await createDraftWorkflow(t, owner, { sequence: 'SELF', name });
  const field = await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: selfRecipient!.id,
    fieldType: 'DIGITAL_SIGNATURE',
    fieldRequired: true,
    box: { x: 72, y: 600, width: 200, height: 60 },
  });
  return { workflow, document, recipient: selfRecipient!, field };
}

/** What the document holds of signer signatures: COMPLETED revisions, and the field's value. Nothing appended: 0 and null. */
export async function appended(t: TestApp, documentId: number, fieldId: number) {
  const revisions = await t.platform.db
    .select()
    .from(signerRevisions)
    .where(and(eq(signerRevisions.documentId, documentId), eq(signerRevisions.status, 'COMPLETED')));
  const [field] = await t.platform.db.select().from(fields).where(eq(fields.id, fieldId));
  return { revisions: revisions.length, value: field.value };
}

export async function sealedBytes(t: TestApp, documentId: number): Promise<Uint8Array> {
  const [row] = await t.platform.db.select().from(documents).where(eq(documents.id, documentId));
  if (!row.sealedBlobKey) throw new Error(`document ${documentId} is not sealed`);
  return new Uint8Array(await t.platform.blobs.get(row.sealedBlobKey));
}

export async function usedQualified(t: TestApp, user: TestUser): Promise<number> {
  const [row] = await t.platform.db
    .select({ used: memberships.usedQualified })
    .from(memberships)
    .where(and(eq(memberships.userId, user.userId), eq(memberships.organizationId, user.organizationId)));
  return row.used;
}

/** The signature field names `pdfsig` reports, in file order. */
export function signatureFieldNames(pdfsigOutput: string): string[] {
  return [...pdfsigOutput.matchAll(/Signature Field Name: (\S+)/g)].map((m) => m[1]);
}
