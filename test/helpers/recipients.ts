import { eq } from 'drizzle-orm';
import { documents, fields, recipients, users } from '../../src/platform/db/schema/index.ts';
import type { TestApp } from './test-app.ts';

/** A valid add-recipient entry; `overrides` replace members (undefined removes one). */
export function recipientEntry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    name: 'Ada Lovelace',
    emailAddress: `ada-${Math.random().toString(36).slice(2, 10)}@example.com`,
    useDigitalCert: false,
    recipientColor: '#FF8800',
    recipientRole: 'SIGNER',
    ...overrides,
  };
  for (const key of Object.keys(entry)) if (entry[key] === undefined) delete entry[key];
  return entry;
}

/** A valid field body on page 1; `overrides` replace members (undefined removes one). */
export function fieldEntry(
  recipientId: number | null,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    recipientId,
    pageNo: 1,
    box: { x: 72, y: 72, width: 150, height: 40 },
    fieldType: 'TEXT',
    fieldRequired: false,
    ...overrides,
  };
  for (const key of Object.keys(entry)) if (entry[key] === undefined) delete entry[key];
  return entry;
}

/** Adds recipients over HTTP and fails loudly unless the call succeeds. */
export async function addRecipients(
  t: TestApp,
  token: string,
  workflowId: number,
  entries: Record<string, unknown>[],
): Promise<any[]> {
  const res = await t.request('POST', `/workflow/v1/${workflowId}/recipients`, { token, body: entries });
  if (res.status !== 200) throw new Error(`adding recipients failed: ${res.status} ${res.raw}`);
  return res.body;
}

/** Adds one field over HTTP and fails loudly unless the call succeeds. */
export async function addField(
  t: TestApp,
  token: string,
  documentId: number,
  entry: Record<string, unknown>,
): Promise<any> {
  const res = await t.request('POST', `/workflow/v1/${documentId}/fields`, { token, body: entry });
  if (res.status !== 200) throw new Error(`adding a field failed: ${res.status} ${res.raw}`);
  return res.body;
}

/** Stored recipient rows of a workflow, straight from the database. */
export async function storedRecipients(t: TestApp, workflowId: number) {
  return t.platform.db.select().from(recipients).where(eq(recipients.workflowId, workflowId)).orderBy(recipients.id);
}

/** Stored field rows of a workflow, straight from the database. */
export async function storedFields(t: TestApp, workflowId: number) {
  return t.platform.db.select().from(fields).where(eq(fields.workflowId, workflowId)).orderBy(fields.id);
}

export async function userByEmail(t: TestApp, email: string) {
  const [row] = await t.platform.db.select().from(users).where(eq(users.email, email));
  return row ?? null;
}

/** A further document in a workflow, inserted directly, with the given displayed page sizes. */
export async function addDocument(
  t: TestApp,
  workflowId: number,
  pageSizes: { width: number; height: number; rotation: number }[],
) {
  const [row] = await t.platform.db
    .insert(documents)
    .values({
      workflowId,
      name: 'Extra document',
      blobKey: 'not-read-by-these-tests',
      size: 1,
      pages: pageSizes.length,
      pageSizes,
    })
    .returning();
  return row;
}
