import { describe, expect } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { fileUser, test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, guestToken, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { makeGeometryPdf } from '../helpers/pdf-sealing-fixtures.ts';
import { updateWorkflow } from '../helpers/document-list.ts';
import { isPng, makeDoc, makeDocx, pngSize, storedState, uploadFile } from '../helpers/documents.ts';
import { has } from '../helpers/tools.ts';
import { activities, documents, folders, recipients, workflows } from '../../src/platform/db/schema/index.ts';

const test = base.override({ ownerName: 'Olivia Owner' }).extend<{ other: TestUser }>({
  other: fileUser({ name: 'Oscar Other' }),
});

const workflowRow = async (t: TestApp, id: number) =>
  (await t.platform.db.select().from(workflows).where(eq(workflows.id, id)))[0];
const documentRow = async (t: TestApp, id: number) =>
  (await t.platform.db.select().from(documents).where(eq(documents.id, id)))[0];
const documentsOf = async (t: TestApp, workflowId: number) =>
  t.platform.db.select().from(documents).where(eq(documents.workflowId, workflowId)).orderBy(asc(documents.position));
const activitiesOf = async (t: TestApp, workflowId: number) =>
  t.platform.db.select().from(activities).where(eq(activities.workflowId, workflowId)).orderBy(asc(activities.id));
const recipientsOf = async (t: TestApp, workflowId: number) =>
  t.platform.db.select().from(recipients).where(eq(recipients.workflowId, workflowId));

describe('POST /document/v1: PDF into a new workflow', () => {
  test('creates a DRAFT workflow around a 1-page PDF, stores the file, thumbnail and page geometry, and records the upload', async ({
    app: t,
    owner,
  }) => {
    const bytes = await makePdf(1);
    const res = await uploadFile(t, owner.token, 'Service Agreement.pdf', bytes);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'thumbnailBase64', 'workflowId']);
    expect(isPng(res.body.thumbnailBase64)).toBe(true);
    expect(pngSize(res.body.thumbnailBase64)).toEqual({ width: 200, height: 259 });

    const workflow = await workflowRow(t, res.body.workflowId);
    expect(workflow).toMatchObject({
      ownerUserId: owner.userId,
      organizationId: owner.organizationId,
      name: 'Service Agreement',
      status: 'DRAFT',
      sequence: 'UNORDERED',
      signType: 'COUNTERSIGN',
      folderId: null,
      timeZone: 'UTC',
    });
    const document = await documentRow(t, res.body.id);
    expect(document).toMatchObject({
      workflowId: workflow.id,
      name: 'Service Agreement',
      position: 0,
      size: bytes.length,
      pages: 1,
      thumbnailBase64: res.body.thumbnailBase64,
    });
    expect(document.pageSizes).toEqual([{ width: 612, height: 792, rotation: 0 }]);
    expect(Buffer.from(await t.platform.blobs.get(document.blobKey)).equals(Buffer.from(bytes))).toBe(true);
    expect(await recipientsOf(t, workflow.id)).toEqual([]);

    const [activity] = await activitiesOf(t, workflow.id);
    expect(activity).toMatchObject({
      kind: 'DOCUMENT_UPLOADED',
      action: 'Created',
      userId: owner.userId,
      userName: 'Olivia Owner',
      status: 'DRAFT',
    });
    expect(activity.sentence).toBe('Olivia Owner uploaded Service Agreement.pdf');
  });

  test("reads the page count and each page's size of a 3-page A4 PDF", async ({ app: t, owner }) => {
    const res = await uploadFile(t, owner.token, 'three.PDF', await makePdf(3, { size: 'a4' }));
    expect(res.status).toBe(201);
    const document = await documentRow(t, res.body.id);
    expect(document.pages).toBe(3);
    expect(document.pageSizes).toEqual(
      Array.from({ length: 3 }, () => ({ width: 595.28, height: 841.89, rotation: 0 })),
    );
  });

  test('stores the visible size after CropBox and /Rotate, inherited ones included', async ({ app: t, owner }) => {
    const cases: Array<[Parameters<typeof makeGeometryPdf>[0], { width: number; height: number; rotation: number }]> = [
      [{ rotate: 90 }, { width: 792, height: 612, rotation: 90 }],
      [
        { rotate: 270, inherit: true },
        { width: 792, height: 612, rotation: 270 },
      ],
      [{ cropBox: [50, 100, 350, 500] }, { width: 300, height: 400, rotation: 0 }],
      // A CropBox reaching past the MediaBox is clipped to it.
      [
        { mediaBox: [0, 0, 400, 600], cropBox: [-100, 100, 300, 900], rotate: 180 },
        { width: 300, height: 500, rotation: 180 },
      ],
      [
        { mediaBox: [0, 0, 400, 600], cropBox: [0, 0, 200, 300], rotate: 90, inherit: true },
        { width: 300, height: 200, rotation: 90 },
      ],
    ];
    for (const [spec, expected] of cases) {
      const res = await uploadFile(t, owner.token, 'geometry.pdf', await makeGeometryPdf(spec));
      expect(res.status, JSON.stringify(spec)).toBe(201);
      expect((await documentRow(t, res.body.id)).pageSizes, JSON.stringify(spec)).toEqual([expected]);
    }
  });

  test('cuts a name taken from a long file name at a word, with an ellipsis, within 50 characters, and drops any directory part', async ({
    app: t,
    owner,
  }) => {
    const long = `${'A'.repeat(45)} and more words.pdf`;
    const res = await uploadFile(t, owner.token, `C:\\Users\\me\\${long}`, await makePdf(1));
    expect(res.status).toBe(201);
    const workflow = await workflowRow(t, res.body.workflowId);
    expect(workflow.name).toBe(`${'A'.repeat(45)} and…`);
    const company = await uploadFile(
      t,
      owner.token,
      'Master services agreement between Acme Holdings Incorporated and Beta.pdf',
      await makePdf(1),
    );
    expect((await workflowRow(t, company.body.workflowId)).name).toBe(
      'Master services agreement between Acme Holdings…',
    );
    const oneWord = await uploadFile(t, owner.token, `${'B'.repeat(70)}.pdf`, await makePdf(1));
    expect((await workflowRow(t, oneWord.body.workflowId)).name).toBe(`${'B'.repeat(49)}…`);
    expect((await documentRow(t, res.body.id)).name).toBe(workflow.name);
    expect((await activitiesOf(t, workflow.id))[0].sentence).toBe(`Olivia Owner uploaded ${long}`);
  });
});

// Where LibreOffice is installed (tools.ts) a Word file is converted; where it is not, the same upload is refused
// with DOCUMENT_CONVERSION_UNAVAILABLE and nothing is stored (README, "Run it").
describe.runIf(has('soffice'))('POST /document/v1: Word', () => {
  test('converts a .docx with LibreOffice and keeps only the PDF', async ({ app: t, owner }) => {
    const res = await uploadFile(
      t,
      owner.token,
      'Offer letter.docx',
      makeDocx(['First page', 'Second page'], { pageBreaks: true }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(isPng(res.body.thumbnailBase64)).toBe(true);
    const document = await documentRow(t, res.body.id);
    expect(document.name).toBe('Offer letter');
    expect(document.pages).toBe(2);
    const stored = await t.platform.blobs.get(document.blobKey);
    expect(Buffer.from(stored.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(document.size).toBe(stored.length);
    expect((document.pageSizes as any[])[0].rotation).toBe(0);
    expect((await activitiesOf(t, res.body.workflowId))[0].sentence).toBe('Olivia Owner uploaded Offer letter.docx');
  });

  test('converts a Word 97-2003 .doc', async ({ app: t, owner }) => {
    const res = await uploadFile(t, owner.token, 'legacy.doc', await makeDoc(['Old format', 'Page two', 'Page three']));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await documentRow(t, res.body.id)).pages).toBe(3);
  });
});

describe.skipIf(has('soffice'))('POST /document/v1: Word, on a machine without LibreOffice', () => {
  test('refuses a .docx and a .doc with DOCUMENT_CONVERSION_UNAVAILABLE and the install hint, storing nothing', async ({
    app: t,
    owner,
  }) => {
    const before = await storedState(t);
    const legacy = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(504).fill(0)]);
    for (const [name, bytes] of [
      ['Offer letter.docx', makeDocx(['First page'])],
      ['legacy.doc', legacy],
    ] as const) {
      const res = await uploadFile(t, owner.token, name, bytes);
      expect(res.status, name).toBe(400);
      expect(res.body, name).toMatchObject({ message: 'DOCUMENT_CONVERSION_UNAVAILABLE', errorCode: 12005 });
      expect(res.body.errorDescription, name).toMatch(/apt-get install libreoffice-writer-nogui/);
    }
    expect(await storedState(t)).toEqual(before);
  });
});

describe('POST /document/v1: workflow options', () => {
  test("SELF creates the owner's own SIGNER row; signType follows sequence and sequence follows signType", async ({
    app: t,
    owner,
  }) => {
    const self = await uploadFile(t, owner.token, 'self.pdf', await makePdf(1), { query: { sequence: 'SELF' } });
    expect(self.status).toBe(201);
    expect(await workflowRow(t, self.body.workflowId)).toMatchObject({ sequence: 'SELF', signType: 'SELFSIGN' });
    const rows = await recipientsOf(t, self.body.workflowId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: owner.userId,
      name: 'Olivia Owner',
      email: owner.email,
      role: 'SIGNER',
      status: 'PENDING',
    });
    const listed = await t.request('GET', `/workflow/v1/${self.body.workflowId}/recipients`, { token: owner.token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((r: any) => [r.emailAddress, r.recipientRole])).toEqual([[owner.email, 'SIGNER']]);

    const bySignType: Array<[Record<string, string>, string, string]> = [
      [{ signType: 'SELFSIGN' }, 'SELF', 'SELFSIGN'],
      [{ signType: 'POWERSURVEY' }, 'SURVEY', 'POWERSURVEY'],
      [{ signType: 'COUNTERSIGN' }, 'UNORDERED', 'COUNTERSIGN'],
      [{ sequence: 'SURVEY' }, 'SURVEY', 'POWERSURVEY'],
      [{ sequence: 'ORDERED' }, 'ORDERED', 'COUNTERSIGN'],
      [{ sequence: 'ORDERED', signType: 'COUNTERSIGN' }, 'ORDERED', 'COUNTERSIGN'],
    ];
    for (const [query, sequence, signType] of bySignType) {
      const res = await uploadFile(t, owner.token, 'mode.pdf', await makePdf(1), { query });
      expect(res.status, JSON.stringify(query)).toBe(201);
      expect(await workflowRow(t, res.body.workflowId), JSON.stringify(query)).toMatchObject({ sequence, signType });
      expect((await recipientsOf(t, res.body.workflowId)).length).toBe(sequence === 'SELF' ? 1 : 0);
    }
  });

  test('refuses contradictory or unknown sequence and signType before storing anything', async ({ app: t, owner }) => {
    const before = await storedState(t);
    for (const query of [
      { sequence: 'SELF', signType: 'COUNTERSIGN' },
      { sequence: 'ORDERED', signType: 'POWERSURVEY' },
      { sequence: 'SURVEY', signType: 'SELFSIGN' },
    ]) {
      const res = await uploadFile(t, owner.token, 'mode.pdf', await makePdf(1), { query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.message).toBe('INVALID_REQUEST_BODY');
    }
    const malformed: Array<Record<string, string | number>> = [
      { sequence: 'PARALLEL' },
      { signType: 'NONE' },
      { workflowId: 'abc' },
      { folderId: 0 },
    ];
    for (const query of malformed) {
      const res = await uploadFile(t, owner.token, 'mode.pdf', await makePdf(1), { query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.message).toBe('BAD_REQUEST_BODY');
    }
    expect(await storedState(t)).toEqual(before);
  });

  test('keeps the IANA part of timeZone, from the multipart part (which wins) or the query', async ({
    app: t,
    owner,
  }) => {
    const fromPart = await uploadFile(t, owner.token, 'tz.pdf', await makePdf(1), {
      fields: { timeZone: 'Asia/Kolkata GMT+05:30' },
      query: { timeZone: 'Europe/Paris' },
    });
    expect(fromPart.status).toBe(201);
    expect((await workflowRow(t, fromPart.body.workflowId)).timeZone).toBe('Asia/Kolkata');
    const fromQuery = await uploadFile(t, owner.token, 'tz.pdf', await makePdf(1), {
      query: { timeZone: 'America/New_York GMT-05:00' },
    });
    expect((await workflowRow(t, fromQuery.body.workflowId)).timeZone).toBe('America/New_York');
    const bare = await uploadFile(t, owner.token, 'tz.pdf', await makePdf(1), {
      fields: { timeZone: 'Europe/Berlin' },
    });
    expect((await workflowRow(t, bare.body.workflowId)).timeZone).toBe('Europe/Berlin');

    const before = await storedState(t);
    for (const timeZone of ['Mars/Olympus GMT+01:00', 'GMT+05:30', 'Asia/Kolkata banana', '<script>']) {
      const res = await uploadFile(t, owner.token, 'tz.pdf', await makePdf(1), { fields: { timeZone } });
      expect(res.status, timeZone).toBe(400);
      expect(res.body.message).toBe('BAD_REQUEST_BODY');
      expect(res.body.errorDescription).toContain('IANA');
    }
    expect(await storedState(t)).toEqual(before);
  });

  test("files the new workflow in the caller's folder; someone else's folder is 404", async ({
    app: t,
    owner,
    other,
  }) => {
    const [mine] = await t.platform.db.insert(folders).values({ userId: owner.userId, name: 'Contracts' }).returning();
    const [theirs] = await t.platform.db.insert(folders).values({ userId: other.userId, name: 'Theirs' }).returning();
    const res = await uploadFile(t, owner.token, 'filed.pdf', await makePdf(1), { query: { folderId: mine.id } });
    expect(res.status).toBe(201);
    expect((await workflowRow(t, res.body.workflowId)).folderId).toBe(mine.id);

    const before = await storedState(t);
    for (const folderId of [theirs.id, 999999]) {
      const refused = await uploadFile(t, owner.token, 'filed.pdf', await makePdf(1), { query: { folderId } });
      expect(refused.status).toBe(404);
      expect(refused.body.message).toBe('NOT_FOUND');
    }
    expect(await storedState(t)).toEqual(before);
  });
});

describe('POST /document/v1?workflowId=: append to a draft', () => {
  test('appends at the next position and records the upload; mode parameters are ignored', async ({
    app: t,
    owner,
  }) => {
    const first = await uploadFile(t, owner.token, 'Main.pdf', await makePdf(1));
    const second = await uploadFile(t, owner.token, 'Annex A.pdf', await makePdf(2), {
      query: { workflowId: first.body.workflowId, sequence: 'SELF', signType: 'POWERSURVEY', timeZone: 'Mars/Base' },
    });
    expect(second.status).toBe(201);
    expect(second.body.workflowId).toBe(first.body.workflowId);
    // A Word annex where LibreOffice is installed (tools.ts), else a PDF one: appending does not depend on the format.
    const annexB = has('soffice') ? 'Annex B.docx' : 'Annex B.pdf';
    const third = await uploadFile(t, owner.token, annexB, has('soffice') ? makeDocx(['Annex B']) : await makePdf(1), {
      query: { workflowId: first.body.workflowId },
    });
    expect(third.status, JSON.stringify(third.body)).toBe(201);

    const docs = await documentsOf(t, first.body.workflowId);
    expect(docs.map((d) => [d.name, d.position, d.pages])).toEqual([
      ['Main', 0, 1],
      ['Annex A', 1, 2],
      ['Annex B', 2, 1],
    ]);
    const workflow = await workflowRow(t, first.body.workflowId);
    expect(workflow).toMatchObject({ name: 'Main', sequence: 'UNORDERED', signType: 'COUNTERSIGN', timeZone: 'UTC' });
    expect(await recipientsOf(t, workflow.id)).toEqual([]);
    expect((await activitiesOf(t, workflow.id)).map((a) => a.sentence)).toEqual([
      'Olivia Owner uploaded Main.pdf',
      'Olivia Owner uploaded Annex A.pdf',
      `Olivia Owner uploaded ${annexB}`,
    ]);
  });

  test('refuses a workflow the caller cannot see (404), does not own (INVALID_WORKFLOW_OWNER) or that is past DRAFT (INVALID_WORKFLOW_STATUS)', async ({
    app: t,
    owner,
    other,
  }) => {
    const othersDraft = await createDraftWorkflow(t, other);
    const othersSent = await createDraftWorkflow(t, other);
    await insertRecipient(t, othersSent.workflow.id, {
      userId: owner.userId,
      name: 'Olivia Owner',
      email: owner.email,
    });
    await updateWorkflow(t, othersSent.workflow.id, { status: 'SENT' });
    const mineSent = await createDraftWorkflow(t, owner);
    await updateWorkflow(t, mineSent.workflow.id, { status: 'SENT' });
    const mineDeleted = await createDraftWorkflow(t, owner);
    await updateWorkflow(t, mineDeleted.workflow.id, { deletedAt: new Date() });

    const before = await storedState(t);
    const cases: Array<[number, number, string]> = [
      [othersDraft.workflow.id, 404, 'NOT_FOUND'],
      [999999, 404, 'NOT_FOUND'],
      [mineDeleted.workflow.id, 404, 'NOT_FOUND'],
      [othersSent.workflow.id, 400, 'INVALID_WORKFLOW_OWNER'],
      [mineSent.workflow.id, 400, 'INVALID_WORKFLOW_STATUS'],
    ];
    for (const [workflowId, status, message] of cases) {
      const res = await uploadFile(t, owner.token, 'extra.pdf', await makePdf(1), { query: { workflowId } });
      expect(res.status, `workflow ${workflowId}`).toBe(status);
      expect(res.body.message).toBe(message);
    }
    expect(await storedState(t)).toEqual(before);
    expect(await documentsOf(t, othersDraft.workflow.id)).toHaveLength(1);
  });
});

describe('POST /document/v1: callers', () => {
  test('needs a signed-in user: no token is 401, a signing-link (guest) token is 403', async ({
    app: t,
    owner,
    other,
  }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const row = await insertRecipient(t, workflow.id, {
      userId: other.userId,
      name: 'Oscar Other',
      email: other.email,
    });
    const before = await storedState(t);
    const anonymous = await uploadFile(t, undefined, 'x.pdf', await makePdf(1));
    expect(anonymous.status).toBe(401);
    const guest = await uploadFile(t, await guestToken(t, row), 'x.pdf', await makePdf(1), {
      query: { workflowId: workflow.id },
    });
    expect(guest.status).toBe(403);
    expect(guest.body.message).toBe('USER_NOT_HAVE_ACCESS');
    expect(await storedState(t)).toEqual(before);
  });

  test('uploads in parallel into one workflow get distinct positions', async ({ app: t, owner }) => {
    const first = await uploadFile(t, owner.token, 'Base.pdf', await makePdf(1));
    const results = await Promise.all(
      [1, 2, 3, 4].map(async (n) =>
        uploadFile(t, owner.token, `Part ${n}.pdf`, await makePdf(n), { query: { workflowId: first.body.workflowId } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect((await documentsOf(t, first.body.workflowId)).map((d) => d.position)).toEqual([0, 1, 2, 3, 4]);
  });
});
