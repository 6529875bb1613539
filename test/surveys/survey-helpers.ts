import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { organizations, packages, workflows } from '../../src/platform/db/schema/index.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { uploadFile } from '../helpers/documents.ts';
import { guestEmail } from '../helpers/signing.ts';
import type { TestUser } from '../helpers/factories.ts';
import type { TestApp } from '../helpers/test-app.ts';

export type SurveyField = {
  fieldType: string;
  label?: string | null;
  fieldRequired?: boolean;
  recipientIndex?: number;
};

/** The usual survey layout: one unassigned signature and one labelled text answer. */
export const DEFAULT_FIELDS: SurveyField[] = [
  { fieldType: 'SIGNATURE', fieldRequired: true },
  { fieldType: 'TEXT', label: 'Comment', fieldRequired: true },
];

/** A DRAFT Power Survey authored over HTTP: upload (SURVEY/POWERSURVEY), SIGNER recipients, fields. */
export async function draftSurvey(
  t: TestApp,
  owner: TestUser,
  options: { recipients: number | string[]; fields?: SurveyField[]; name?: string } = { recipients: 2 },
) {
  const names =
    typeof options.recipients === 'number'
      ? Array.from(
          { length: options.recipients },
          (_, i) =>
            `Person ${String.fromCharCode(65 + (i % 26))}${i >= 26 ? String.fromCharCode(65 + (Math.floor(i / 26) % 26)) : ''}`,
        )
      : options.recipients;
  const upload = await uploadFile(t, owner.token, `${options.name ?? 'Staff survey'}.pdf`, await makePdf(1), {
    query: { sequence: 'SURVEY', signType: 'POWERSURVEY' },
  });
  expect(upload.status, upload.raw).toBe(201);
  const workflowId: number = upload.body.workflowId;
  const documentId: number = upload.body.id;
  let recipients: { id: number; name: string; emailAddress: string }[] = [];
  if (names.length > 0) {
    const added = await t.request('POST', `/workflow/v1/${workflowId}/recipients`, {
      token: owner.token,
      body: names.map((name) => ({
        name,
        emailAddress: guestEmail(name),
        useDigitalCert: false,
        recipientColor: '#1A56DB',
      })),
    });
    expect(added.status, added.raw).toBe(200);
    recipients = added.body;
  }
  const fields = options.fields ?? DEFAULT_FIELDS;
  if (fields.length > 0) {
    const res = await t.request('POST', '/workflow/v1/fields/list', {
      token: owner.token,
      body: fields.map((f, i) => ({
        documentId,
        pageNo: 1,
        box: { x: 72, y: 72 + 50 * i, width: 150, height: 40 },
        fieldType: f.fieldType,
        fieldRequired: f.fieldRequired ?? false,
        label: f.label ?? null,
        recipientId: f.recipientIndex === undefined ? null : recipients[f.recipientIndex].id,
      })),
    });
    expect(res.status, res.raw).toBe(200);
  }
  return { workflowId, documentId, recipients };
}

export async function setSurveyLimit(t: TestApp, owner: TestUser, limit: number): Promise<void> {
  const [org] = await t.platform.db.select().from(organizations).where(eq(organizations.id, owner.organizationId));
  await t.platform.db.update(packages).set({ powerSurveyRecipientLimit: limit }).where(eq(packages.id, org.packageId));
}

export async function setCredits(t: TestApp, owner: TestUser, credits: number): Promise<void> {
  await t.platform.db.update(organizations).set({ credits }).where(eq(organizations.id, owner.organizationId));
}

export async function creditsOf(t: TestApp, owner: TestUser): Promise<number> {
  const [org] = await t.platform.db.select().from(organizations).where(eq(organizations.id, owner.organizationId));
  return org.credits;
}

export async function childrenOf(t: TestApp, parentId: number) {
  return t.platform.db.select().from(workflows).where(eq(workflows.parentWorkflowId, parentId));
}

export async function statusOf(t: TestApp, workflowId: number): Promise<string> {
  const [row] = await t.platform.db
    .select({ status: workflows.status })
    .from(workflows)
    .where(eq(workflows.id, workflowId));
  return row.status;
}
