import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { fields, organizations, recipients, workflows } from '../../src/platform/db/schema/index.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { insertBusinessApp } from '../helpers/auth.ts';
import { markSent } from '../helpers/envelope-states.ts';
import { pngDataUrl, sampleValue } from '../helpers/ceremony.ts';
import { uploadFile } from '../helpers/documents.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { addField, addRecipients, fieldEntry, recipientEntry } from '../helpers/recipients.ts';
import { createRole, grant, organizationName } from '../organizations/org-helpers.ts';
import { createTemplate, sourceWorkflow } from '../templates/template-helpers.ts';
import { partnerToken } from './security-helpers.ts';

/**
 * RUNTIME "Who may do what": a business app's token acting as a user (CLIENT_CREDENTIALS) does envelope work as that
 * user may within the app's organization. The attack: the owner of organization C invites Mona (who has her own
 * organization), registers an app and signs in with CLIENT_CREDENTIALS and Mona's email. The token must not reach
 * Mona's workflows of her own organization, nor envelopes third parties sent her (404, as if they did not exist),
 * and never acts as a recipient, not even in C (403 USER_NOT_HAVE_ACCESS): a recipient signs through their
 * signing link. The app still does C's envelope work.
 */
let t: TestApp;
let carol: TestUser;
let mona: TestUser;
let tom: TestUser;
let partner: string;
let own: { workflowId: number; documentId: number; fieldId: number };
let ownSelf: { workflowId: number; documentId: number; fieldId: number };
let received: { workflowId: number; documentId: number; fieldId: number; recipientId: number };
let receivedApproval: { workflowId: number; recipientId: number };
let colleague: { workflowId: number; documentId: number; fieldId: number; recipientId: number };
let appSelf: { workflowId: number; documentId: number; fieldId: number };
let monaFolderId: number;

/** A SENT envelope of `sender` addressed to Mona (dispatched), with a SIGNATURE field of hers; `role` her row's. */
async function sentToMona(sender: TestUser, name: string, role = 'SIGNER') {
  const { workflow, document } = await createDraftWorkflow(t, sender, { name });
  const row = await insertRecipient(t, workflow.id, {
    userId: mona.userId,
    name: mona.name,
    email: mona.email,
    role,
    recipientOrder: 1,
  });
  const field = await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: row.id,
    fieldType: 'SIGNATURE',
  });
  await markSent(t, workflow.id, [row.id]);
  return { workflowId: workflow.id, documentId: document.id, fieldId: field.id, recipientId: row.id };
}

/** A SELF draft of `owner` acting in `organizationId`, with the owner's SIGNATURE field. */
async function selfDraft(owner: TestUser, organizationId: number, name: string) {
  const { workflow, document, selfRecipient } = await createDraftWorkflow(
    t,
    { ...owner, organizationId },
    { sequence: 'SELF', name },
  );
  const field = await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: selfRecipient!.id,
    fieldType: 'SIGNATURE',
  });
  return { workflowId: workflow.id, documentId: document.id, fieldId: field.id };
}

const listIds = async (token: string, query = '') => {
  const res = await t.request('GET', `/document/v1?page=0&size=100${query}`, { token });
  expect(res.status, res.raw).toBe(200);
  return {
    ids: res.body.content.map((item: { workflowId: number }) => item.workflowId) as number[],
    total: res.body.totalElements as number,
  };
};
const creditsOf = async (organizationId: number) =>
  (await t.platform.db.select().from(organizations).where(eq(organizations.id, organizationId)))[0].credits;
const workflowOf = async (workflowId: number) =>
  (await t.platform.db.select().from(workflows).where(eq(workflows.id, workflowId)))[0];
const fieldOf = async (fieldId: number) => (await t.platform.db.select().from(fields).where(eq(fields.id, fieldId)))[0];
const rowOf = async (recipientId: number) =>
  (await t.platform.db.select().from(recipients).where(eq(recipients.id, recipientId)))[0];

function expectError(res: { status: number; body: any; raw: string }, status: number, message: string) {
  expect([res.status, res.body?.message], res.raw).toEqual([status, message]);
}

beforeAll(async () => {
  t = await createTestApp();
  carol = await createUser(t, { name: 'Carol Owner' });
  mona = await createUser(t, { name: 'Mona Member' });
  tom = await createUser(t, { name: 'Tom Third' });

  // Mona's own organization: a draft with a recipient (commence would spend its credits) and a SELF draft.
  const draft = await createDraftWorkflow(t, mona, { name: 'Mona private draft' });
  const rob = await insertRecipient(t, draft.workflow.id, {
    userId: tom.userId,
    name: 'Rob Recipient',
    email: tom.email,
    recipientOrder: 1,
  });
  const robField = await insertField(t, {
    workflowId: draft.workflow.id,
    documentId: draft.document.id,
    recipientId: rob.id,
    fieldType: 'SIGNATURE',
  });
  own = { workflowId: draft.workflow.id, documentId: draft.document.id, fieldId: robField.id };
  ownSelf = await selfDraft(mona, mona.organizationId, 'Mona private self');
  const folder = await t.request('POST', '/workflow/v1/user/folders', {
    token: mona.token,
    body: { folderName: 'Private' },
  });
  expect(folder.status, folder.raw).toBe(200);
  monaFolderId = folder.body.id;
  expect(
    (await t.request('PUT', `/workflow/v1/user/folders/${monaFolderId}/${own.workflowId}`, { token: mona.token }))
      .status,
  ).toBe(200);

  // Envelopes a third party sent Mona.
  received = await sentToMona(tom, 'Tom to Mona');
  receivedApproval = await sentToMona(tom, 'Tom to Mona for approval', 'APPROVER');

  // Carol invites Mona into C (a role that may send and use templates); Mona accepts; Carol registers an app.
  const role = await createRole(t, carol, { permissions: [grant('TEMPLATES', { canView: true })] });
  const invited = await t.request('POST', '/organization/v1/user', {
    token: carol.token,
    body: { name: mona.name, emailAddress: mona.email, role: role.id },
  });
  expect(invited.status, invited.raw).toBe(200);
  const accepted = await t.request('PUT', '/organization/v1/invite', {
    token: mona.token,
    body: { orgNames: [await organizationName(t, carol)], inviteStatus: 'ACCEPTED' },
  });
  expect(accepted.status, accepted.raw).toBe(200);
  const app = await insertBusinessApp(t, carol.organizationId);
  partner = await partnerToken(t, mona, app);

  // In C: an envelope Carol sent Mona, and a SELF draft of Mona's.
  colleague = await sentToMona(carol, 'Carol to Mona');
  appSelf = await selfDraft(mona, carol.organizationId, 'Mona self in C');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe("a business app's token acting as a member of its organization", () => {
  it("lists, counts, searches and files only the workflows of the app's organization", async () => {
    const others = [own.workflowId, ownSelf.workflowId, received.workflowId, receivedApproval.workflowId];
    // Mona's own session sees all of them (the list is hers, across organizations).
    const mine = await listIds(mona.token);
    expect(mine.ids).toEqual(expect.arrayContaining([...others, colleague.workflowId, appSelf.workflowId]));

    const listed = await listIds(partner);
    expect(listed.ids).toEqual(expect.arrayContaining([colleague.workflowId, appSelf.workflowId]));
    expect(listed.ids.filter((id) => others.includes(id))).toEqual([]);
    expect(listed.total).toBe(listed.ids.length);

    // Every status filter and its count tile tell the same story.
    const counts = await t.request('GET', '/document/v1/count/documents-status', { token: partner });
    expect(counts.status, counts.raw).toBe(200);
    const filters: [string, string][] = [
      ['Draft', 'draftDocCount'],
      ['Sent', 'sentDocCount'],
      ['Pending', 'pendingDocCount'],
      ['Signed', 'signedDocCount'],
      ['Completed', 'completedDocCount'],
      ['Voided', 'voidDocCount'],
    ];
    for (const [status, tile] of filters) {
      const filtered = await listIds(partner, `&status=${status}`);
      expect(
        filtered.ids.filter((id) => others.includes(id)),
        status,
      ).toEqual([]);
      expect(counts.body[tile], status).toBe(filtered.total);
      expect(filtered.total, status).toBe(filtered.ids.length);
    }
    expect(counts.body).toMatchObject({ draftDocCount: 1, sentDocCount: 1, pendingDocCount: 1 });

    // A search by the other workflows' names, and Mona's folder holding her own organization's draft.
    for (const term of ['Mona private', 'Tom to Mona']) {
      expect((await listIds(mona.token, `&searchValue=${encodeURIComponent(term)}`)).total, term).toBeGreaterThan(0);
      expect(await listIds(partner, `&searchValue=${encodeURIComponent(term)}`), term).toEqual({ ids: [], total: 0 });
    }
    expect((await listIds(partner, '&searchValue=Mona')).ids.sort()).toEqual(
      [appSelf.workflowId, colleague.workflowId].sort(),
    );
    expect((await listIds(mona.token, `&folderID=${monaFolderId}`)).ids).toEqual([own.workflowId]);
    expect(await listIds(partner, `&folderID=${monaFolderId}`)).toEqual({ ids: [], total: 0 });
  });

  it("files nothing of another organization into the user's folders, and counts only its own organization's", async () => {
    const folders = async (token: string) =>
      (await t.request('GET', '/workflow/v1/user/folders', { token })).body as { id: number; documentsCount: number }[];
    expect((await folders(mona.token)).find((f) => f.id === monaFolderId)?.documentsCount).toBe(1);
    expect((await folders(partner)).find((f) => f.id === monaFolderId)?.documentsCount).toBe(0);
    for (const workflowId of [ownSelf.workflowId, received.workflowId]) {
      const filed = await t.request('PUT', `/workflow/v1/user/folders/${monaFolderId}/${workflowId}`, {
        token: partner,
      });
      expectError(filed, 404, 'NOT_FOUND');
    }
    expect((await workflowOf(ownSelf.workflowId)).folderId).toBeNull();
    // Its own organization's workflow files as before.
    const inC = await t.request('PUT', `/workflow/v1/user/folders/${monaFolderId}/${appSelf.workflowId}`, {
      token: partner,
    });
    expect(inC.status, inC.raw).toBe(200);
    expect(inC.body.documentsCount).toBe(1);
    expect(
      (await t.request('PUT', `/workflow/v1/user/folders/${monaFolderId}/${own.workflowId}`, { token: mona.token }))
        .status,
    ).toBe(200);
  });

  it("reads nothing of another organization's workflows: 404 as if they did not exist", async () => {
    for (const target of [own, ownSelf, received]) {
      const { workflowId, documentId } = target;
      const reads = [
        `/document/v1/docs-detail/${workflowId}`,
        `/document/v1/${documentId}`,
        `/document/v1/download/${workflowId}?selectedOption=downloadDocument&documentId=${documentId}`,
        `/document/v1/download/${workflowId}?selectedOption=downloadAll`,
        `/document/v1/page-image/${workflowId}`,
        `/workflow/v1/${workflowId}/history`,
        `/workflow/v1/evidence-report/${workflowId}`,
        `/workflow/v1/${workflowId}/recipients`,
        `/workflow/v1/${workflowId}/fields`,
        `/workflow/v1/${workflowId}/signing/overview`,
        `/workflow/v1/${workflowId}/reject-details`,
      ];
      for (const url of reads) {
        expect((await t.request('GET', url, { token: mona.token })).status, `Mona's own session: ${url}`).not.toBe(404);
        expectError(await t.request('GET', url, { token: partner }), 404, 'NOT_FOUND');
      }
    }
  });

  it('cannot sign, approve, decline, delegate, commence or delete there', async () => {
    const creditsBefore = await creditsOf(mona.organizationId);
    const attempts: [string, string, unknown][] = [
      [
        'POST',
        `/workflow/v1/${received.documentId}/fields/save`,
        [{ id: received.fieldId, type: 'SIGNATURE', value: sampleValue('SIGNATURE') }],
      ],
      ['POST', `/workflow/v1/${received.workflowId}/sign`, { id: received.fieldId, image: pngDataUrl() }],
      ['POST', `/workflow/v1/${receivedApproval.workflowId}/approve`, { comment: 'fine' }],
      ['POST', `/workflow/v1/${received.workflowId}/decline`, { reason: 'Not mine' }],
      [
        'POST',
        `/workflow/v1/${received.workflowId}/recipients/${received.recipientId}/delegate`,
        { name: 'Eve Delegate', emailAddress: 'eve@example.com' },
      ],
      ['POST', `/workflow/v1/${received.workflowId}/identity/send-otp`, {}],
      [
        'POST',
        `/workflow/v1/${ownSelf.documentId}/fields/save`,
        [{ id: ownSelf.fieldId, type: 'SIGNATURE', value: sampleValue('SIGNATURE') }],
      ],
      ['POST', `/workflow/v1/${own.workflowId}/commence`, {}],
      ['POST', `/workflow/v1/${own.workflowId}/recipients`, [recipientEntry()]],
      ['POST', `/workflow/v1/${own.documentId}/fields`, fieldEntry(null)],
      ['DELETE', `/document/v1/${own.workflowId}`, undefined],
      ['DELETE', '/document/v1/workflows', { workflowIds: String(ownSelf.workflowId) }],
      ['DELETE', '/document/v1', { ids: [own.documentId] }],
    ];
    for (const [method, url, body] of attempts) {
      expectError(await t.request(method, url, { token: partner, body }), 404, 'NOT_FOUND');
    }
    expect(await fieldOf(received.fieldId)).toMatchObject({ value: null });
    expect(await fieldOf(ownSelf.fieldId)).toMatchObject({ value: null });
    expect(await rowOf(received.recipientId)).toMatchObject({ status: 'SENT' });
    expect(await rowOf(receivedApproval.recipientId)).toMatchObject({ status: 'SENT' });
    expect(await workflowOf(received.workflowId)).toMatchObject({ status: 'SENT', deletedAt: null });
    expect(await workflowOf(own.workflowId)).toMatchObject({ status: 'DRAFT', deletedAt: null });
    expect(await workflowOf(ownSelf.workflowId)).toMatchObject({ status: 'DRAFT', deletedAt: null });
    expect(await creditsOf(mona.organizationId)).toBe(creditsBefore);
  });

  it('never acts as a recipient, not even in its own organization: 403 USER_NOT_HAVE_ACCESS; reading stays', async () => {
    // Carol's envelope to Mona is C's: the app reads it, holding no recipient row (its list and reads name none).
    const detail = await t.request('GET', `/document/v1/docs-detail/${colleague.workflowId}`, { token: partner });
    expect([detail.status, detail.body[0]?.recipientId], detail.raw).toEqual([200, null]);
    const itemOf = async (token: string) =>
      (await t.request('GET', '/document/v1?page=0&size=100', { token })).body.content.find(
        (i: any) => i.workflowId === colleague.workflowId,
      );
    expect(await itemOf(partner)).toMatchObject({ recipientId: null, recipientRole: null });
    expect(await itemOf(mona.token)).toMatchObject({ recipientId: colleague.recipientId, recipientRole: 'SIGNER' });
    expect(
      (
        await t.request(
          'GET',
          `/document/v1/download/${colleague.workflowId}?selectedOption=downloadDocument&documentId=${colleague.documentId}`,
          { token: partner },
        )
      ).status,
    ).toBe(200);
    expect((await t.request('GET', `/workflow/v1/${colleague.workflowId}/history`, { token: partner })).status).toBe(
      200,
    );
    const attempts: [string, string, unknown][] = [
      [
        'POST',
        `/workflow/v1/${colleague.documentId}/fields/save`,
        [{ id: colleague.fieldId, type: 'SIGNATURE', value: sampleValue('SIGNATURE') }],
      ],
      ['POST', `/workflow/v1/${colleague.workflowId}/sign`, { id: colleague.fieldId, image: pngDataUrl() }],
      ['POST', `/workflow/v1/${colleague.workflowId}/approve`, {}],
      ['POST', `/workflow/v1/${colleague.workflowId}/decline`, { reason: 'Not now' }],
      [
        'POST',
        `/workflow/v1/${colleague.workflowId}/recipients/${colleague.recipientId}/delegate`,
        { name: 'Eve Delegate', emailAddress: 'eve@example.com' },
      ],
      ['POST', `/workflow/v1/${colleague.workflowId}/identity/send-otp`, {}],
      ['POST', `/workflow/v1/${colleague.workflowId}/identity/verify-otp`, { code: '123456' }],
      ['POST', `/workflow/v1/${colleague.workflowId}/identity/verify-password`, { password: 'anything' }],
      // Its own SELF draft: the app does not sign for its user either.
      [
        'POST',
        `/workflow/v1/${appSelf.documentId}/fields/save`,
        [{ id: appSelf.fieldId, type: 'SIGNATURE', value: sampleValue('SIGNATURE') }],
      ],
      ['POST', `/workflow/v1/${appSelf.workflowId}/sign`, { id: appSelf.fieldId, image: pngDataUrl() }],
    ];
    for (const [method, url, body] of attempts) {
      expectError(await t.request(method, url, { token: partner, body }), 403, 'USER_NOT_HAVE_ACCESS');
    }
    expect(await fieldOf(colleague.fieldId)).toMatchObject({ value: null });
    expect(await fieldOf(appSelf.fieldId)).toMatchObject({ value: null });
    expect(await rowOf(colleague.recipientId)).toMatchObject({ status: 'SENT' });
    expect(await workflowOf(colleague.workflowId)).toMatchObject({ status: 'SENT' });
  });

  it('does the envelope work of its organization: upload, recipients, fields, commence, templates, reads and downloads', async () => {
    const creditsBefore = await creditsOf(carol.organizationId);
    const upload = await uploadFile(t, partner, 'Partner deal.pdf', await makePdf(1));
    expect(upload.status, upload.raw).toBe(201);
    const workflowId = upload.body.workflowId;
    expect(await workflowOf(workflowId)).toMatchObject({
      organizationId: carol.organizationId,
      ownerUserId: mona.userId,
      status: 'DRAFT',
    });
    const [signer] = await addRecipients(t, partner, workflowId, [recipientEntry({ name: 'Sam Signer' })]);
    await addField(t, partner, upload.body.id, fieldEntry(signer.id, { fieldType: 'SIGNATURE', fieldRequired: true }));
    const commenced = await t.request('POST', `/workflow/v1/${workflowId}/commence`, { token: partner, body: {} });
    expect(commenced.status, commenced.raw).toBe(200);
    expect(await workflowOf(workflowId)).toMatchObject({ status: 'SENT' });
    expect(await creditsOf(carol.organizationId)).toBeLessThan(creditsBefore);

    for (const url of [
      `/document/v1/docs-detail/${workflowId}`,
      `/document/v1/${upload.body.id}`,
      `/workflow/v1/${workflowId}/history`,
      `/workflow/v1/${workflowId}/recipients`,
      `/document/v1/download/${workflowId}?selectedOption=downloadDocument&documentId=${upload.body.id}`,
    ]) {
      const res = await t.request('GET', url, { token: partner });
      expect(res.status, `${url}: ${res.raw.slice(0, 300)}`).toBe(200);
    }
    expect((await listIds(partner)).ids).toContain(workflowId);

    // Carol's template, applied and dispatched by the app as Mona.
    const source = await sourceWorkflow(t, carol);
    const template = await createTemplate(t, carol.token, {
      name: 'Partner template',
      workflowId: source.workflow.id,
      recipientLabels: [{ order: 2, label: 'Client' }],
    });
    const applied = await t.request('POST', `/workflow/v1/templates/${template.id}/apply`, {
      token: partner,
      body: [{ recipientIndex: 2, name: 'Paula Partner', emailAddress: 'paula@example.com' }],
    });
    expect(applied.status, applied.raw).toBe(200);
    expect(await workflowOf(applied.body.id)).toMatchObject({
      organizationId: carol.organizationId,
      ownerUserId: mona.userId,
      status: 'DRAFT',
    });
    const dispatched = await t.request('POST', `/workflow/v1/templates/${template.id}/dispatch`, {
      token: partner,
      body: [{ recipientIndex: 2, name: 'Dora Dispatch', emailAddress: 'dora@example.com' }],
    });
    expect(dispatched.status, dispatched.raw).toBe(200);

    // Its own draft: the app deletes it.
    const deleted = await t.request('DELETE', `/document/v1/${applied.body.id}`, { token: partner });
    expect(deleted.status, deleted.raw).toBe(200);
  });
});
