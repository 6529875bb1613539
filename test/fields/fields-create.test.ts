import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, guestToken, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { markSent, setWorkflow } from '../helpers/envelope-states.ts';
import { addDocument, addRecipients, fieldEntry, recipientEntry, storedFields } from '../helpers/recipients.ts';

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Owner Person' });
});
afterAll(async () => {
  await t?.close();
});

const READ_KEYS = [
  'id',
  'documentId',
  'workflowId',
  'recipientId',
  'pageNo',
  'box',
  'fieldType',
  'fieldRequired',
  'label',
  'value',
  'signatureAssetId',
  'styling',
  'options',
].sort();
const FIELD_TYPES = [
  'SIGNATURE',
  'TEXT',
  'CHECKBOX',
  'NAME',
  'EMAIL',
  'NUMBER',
  'DROPDOWN',
  'NOTE',
  'TEXTAREA',
  'DIGITAL_SIGNATURE',
  'INITIALS',
  'IMAGE',
  'DATE',
  'STAMP',
];

/** A DRAFT workflow of `pages` Letter pages with one SIGNER and one CC recipient. */
async function setup(options: { sequence?: 'ORDERED' | 'UNORDERED' | 'SURVEY'; pages?: number } = {}) {
  const { workflow, document } = await createDraftWorkflow(t, owner, {
    sequence: options.sequence ?? 'UNORDERED',
    pages: options.pages ?? 1,
  });
  const entries =
    options.sequence === 'SURVEY'
      ? [recipientEntry()]
      : [recipientEntry({ recipientOrder: 1 }), recipientEntry({ recipientRole: 'CC', recipientOrder: 2 })];
  const [signer, cc] = await addRecipients(t, owner.token, workflow.id, entries);
  return { workflow, document, signer, cc };
}

async function post(documentId: number, body: unknown, token = owner.token) {
  return t.request('POST', `/workflow/v1/${documentId}/fields`, { token, body });
}

/** Expects the given status and error identifier, and that no field was written. */
async function expectRejected(
  workflowId: number,
  call: Promise<{ status: number; body: any; raw: string }>,
  status: number,
  message: string,
) {
  const before = await storedFields(t, workflowId);
  const res = await call;
  expect(res.status, res.raw).toBe(status);
  expect(res.body.message).toBe(message);
  expect(await storedFields(t, workflowId)).toEqual(before);
  return res;
}

describe('adding one field', () => {
  it('answers the field in the read shape, with no value and the link hidden from the owner', async () => {
    const { workflow, document, signer } = await setup();
    const res = await post(
      document.id,
      fieldEntry(signer.id, {
        fieldType: 'SIGNATURE',
        fieldRequired: true,
        label: '  Sign here  ',
        signatureAssetId: 7,
        value: 'ignored',
      }),
    );
    expect(res.status, res.raw).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(READ_KEYS);
    expect(res.body).toMatchObject({
      documentId: document.id,
      workflowId: workflow.id,
      recipientId: signer.id,
      pageNo: 1,
      box: { x: 72, y: 72, width: 150, height: 40 },
      fieldType: 'SIGNATURE',
      fieldRequired: true,
      label: 'Sign here',
      value: null,
      signatureAssetId: null,
      styling: null,
      options: null,
    });
    const [stored] = await storedFields(t, workflow.id);
    expect(stored.signatureAssetId).toBe(7);
    expect(stored.value).toBeNull();
  });

  it.each(FIELD_TYPES)('accepts the type %s', async (fieldType) => {
    const { document, signer } = await setup();
    const res = await post(
      document.id,
      fieldEntry(signer.id, { fieldType, options: fieldType === 'DROPDOWN' ? ['Yes', 'No'] : undefined }),
    );
    expect(res.status, res.raw).toBe(200);
    expect(res.body.fieldType).toBe(fieldType);
  });

  it('defaults fieldRequired to false and stores a blank label as null', async () => {
    const { document, signer } = await setup();
    const res = await post(document.id, fieldEntry(signer.id, { fieldRequired: undefined, label: '   ' }));
    expect(res.body).toMatchObject({ fieldRequired: false, label: null });
  });

  describe('page and box', () => {
    it('accepts the last page, a box filling the whole page, and fractional edges', async () => {
      const { document, signer } = await setup({ pages: 2 });
      for (const entry of [
        fieldEntry(signer.id, { pageNo: 2 }),
        fieldEntry(signer.id, { box: { x: 0, y: 0, width: 612, height: 792 } }),
        fieldEntry(signer.id, { box: { x: 0.1, y: 0.3, width: 611.9, height: 791.7 } }),
      ]) {
        const res = await post(document.id, entry);
        expect(res.status, res.raw).toBe(200);
      }
    });

    it.each([
      ['pageNo 0', { pageNo: 0 }, 'pageNo'],
      ['pageNo pages+1', { pageNo: 3 }, 'pageNo'],
      ['1 pt past the right edge', { box: { x: 463, y: 72, width: 150, height: 40 } }, 'box'],
      ['1 pt past the bottom edge', { box: { x: 72, y: 753, width: 150, height: 40 } }, 'box'],
      ['1 pt past the left edge', { box: { x: -1, y: 72, width: 150, height: 40 } }, 'box'],
      ['1 pt past the top edge', { box: { x: 72, y: -1, width: 150, height: 40 } }, 'box'],
      ['a zero width', { box: { x: 72, y: 72, width: 0, height: 40 } }, 'box'],
      ['a zero height', { box: { x: 72, y: 72, width: 150, height: 0 } }, 'box'],
      ['a negative width', { box: { x: 300, y: 72, width: -10, height: 40 } }, 'box'],
    ])('refuses %s (INVALID_FIELD)', async (_label, overrides, member) => {
      const { workflow, document, signer } = await setup({ pages: 2 });
      const res = await expectRejected(
        workflow.id,
        post(document.id, fieldEntry(signer.id, overrides)),
        400,
        'INVALID_FIELD',
      );
      expect(res.body.responseBody).toEqual({ field: member });
    });

    it('checks the box against the size of the page it is on', async () => {
      const { workflow, signer } = await setup();
      const mixed = await addDocument(t, workflow.id, [
        { width: 612, height: 792, rotation: 0 },
        { width: 792, height: 612, rotation: 90 },
      ]);
      const wide = { x: 700, y: 500, width: 92, height: 112 };
      expect((await post(mixed.id, fieldEntry(signer.id, { pageNo: 2, box: wide }))).status).toBe(200);
      await expectRejected(
        workflow.id,
        post(mixed.id, fieldEntry(signer.id, { pageNo: 1, box: wide })),
        400,
        'INVALID_FIELD',
      );
      await expectRejected(
        workflow.id,
        post(mixed.id, fieldEntry(signer.id, { pageNo: 2, box: { ...wide, height: 113 } })),
        400,
        'INVALID_FIELD',
      );
    });

    it.each([
      ['a box member missing', { box: { x: 1, y: 1, width: 10 } }],
      ['a box member as a string', { box: { x: '1', y: 1, width: 10, height: 10 } }],
      ['no box', { box: undefined }],
      ['no pageNo', { pageNo: undefined }],
      ['a fractional pageNo', { pageNo: 1.5 }],
      ['an unknown type', { fieldType: 'SIGNATURE2' }],
      ['no type', { fieldType: undefined }],
      ['a label of 256 characters', { label: 'L'.repeat(256) }],
    ])('refuses %s (BAD_REQUEST_BODY)', async (_label, overrides) => {
      const { workflow, document, signer } = await setup();
      await expectRejected(workflow.id, post(document.id, fieldEntry(signer.id, overrides)), 400, 'BAD_REQUEST_BODY');
    });

    it('accepts a label of 255 characters', async () => {
      const { document, signer } = await setup();
      expect((await post(document.id, fieldEntry(signer.id, { label: 'L'.repeat(255) }))).status).toBe(200);
    });
  });

  describe('recipient', () => {
    it('refuses a missing recipient, one of another workflow, an unknown one and a CC', async () => {
      const { workflow, document, cc } = await setup();
      const other = await setup();
      for (const recipientId of [undefined, null, other.signer.id, 2147483000, cc.id]) {
        const res = await expectRejected(
          workflow.id,
          post(document.id, fieldEntry(null, { recipientId })),
          400,
          'INVALID_FIELD',
        );
        expect(res.body.responseBody).toEqual({ field: 'recipientId' });
      }
    });

    it('accepts an APPROVER', async () => {
      const { workflow, document } = await setup();
      const [approver] = await addRecipients(t, owner.token, workflow.id, [
        recipientEntry({ recipientRole: 'APPROVER' }),
      ]);
      expect((await post(document.id, fieldEntry(approver.id))).status).toBe(200);
    });

    it('lets a Power Survey field stay unassigned', async () => {
      const { document, signer } = await setup({ sequence: 'SURVEY' });
      const unassigned = await post(document.id, fieldEntry(null, { fieldType: 'SIGNATURE' }));
      expect(unassigned.status, unassigned.raw).toBe(200);
      expect(unassigned.body.recipientId).toBeNull();
      expect((await post(document.id, fieldEntry(null, { recipientId: undefined, label: 'Your name' }))).status).toBe(
        200,
      );
      expect((await post(document.id, fieldEntry(signer.id))).status).toBe(200);
    });
  });

  describe('DROPDOWN options', () => {
    it('stores 1 to 100 trimmed options', async () => {
      const { document, signer } = await setup();
      const one = await post(document.id, fieldEntry(signer.id, { fieldType: 'DROPDOWN', options: ['  Only  '] }));
      expect(one.body.options).toEqual(['Only']);
      const hundred = Array.from({ length: 100 }, (_, i) => `Choice ${i + 1}`);
      expect(
        (await post(document.id, fieldEntry(signer.id, { fieldType: 'DROPDOWN', options: hundred }))).body.options,
      ).toEqual(hundred);
    });

    it.each([
      ['no options', { options: undefined }, 'INVALID_FIELD'],
      ['an empty list', { options: [] }, 'INVALID_FIELD'],
      ['a blank option', { options: ['Yes', '   '] }, 'INVALID_FIELD'],
      ['101 options', { options: Array.from({ length: 101 }, (_, i) => `C${i}`) }, 'BAD_REQUEST_BODY'],
      ['a number as option', { options: ['Yes', 2] }, 'BAD_REQUEST_BODY'],
    ])('refuses %s', async (_label, overrides, message) => {
      const { workflow, document, signer } = await setup();
      await expectRejected(
        workflow.id,
        post(document.id, fieldEntry(signer.id, { fieldType: 'DROPDOWN', ...overrides })),
        400,
        message,
      );
    });

    it('refuses options on another type, but takes an empty list or null there', async () => {
      const { workflow, document, signer } = await setup();
      await expectRejected(
        workflow.id,
        post(document.id, fieldEntry(signer.id, { options: ['A'] })),
        400,
        'INVALID_FIELD',
      );
      expect((await post(document.id, fieldEntry(signer.id, { options: [] }))).body.options).toBeNull();
      expect((await post(document.id, fieldEntry(signer.id, { options: null }))).body.options).toBeNull();
    });
  });

  describe('styling', () => {
    const full = {
      textColor: '#112233',
      fontFamily: 'Helvetica',
      bold: true,
      italic: false,
      underline: true,
      strikethrough: false,
      textAlign: 'center',
      backgroundColor: '#FFFFFF',
      fontSize: 12.5,
      placeholder: 'Type here',
      dateLang: 'de-CH',
      useAsLabel: true,
    };

    it('stores every styling key, and drops null members', async () => {
      const { document, signer } = await setup();
      expect((await post(document.id, fieldEntry(signer.id, { styling: full }))).body.styling).toEqual(full);
      const partial = await post(document.id, fieldEntry(signer.id, { styling: { bold: true, textColor: null } }));
      expect(partial.body.styling).toEqual({ bold: true });
      expect((await post(document.id, fieldEntry(signer.id, { styling: { fontSize: 4 } }))).body.styling).toEqual({
        fontSize: 4,
      });
      expect((await post(document.id, fieldEntry(signer.id, { styling: { fontSize: 72 } }))).body.styling).toEqual({
        fontSize: 72,
      });
    });

    it.each([
      ['an unknown key', { fontWeight: 'bold' }],
      ['a colour name', { textColor: 'red' }],
      ['a short hex colour', { backgroundColor: '#FFF' }],
      ['fontSize 3.9', { fontSize: 3.9 }],
      ['fontSize 73', { fontSize: 73 }],
      ['textAlign justify', { textAlign: 'justify' }],
      ['bold as a string', { bold: 'yes' }],
      ['a malformed dateLang', { dateLang: 'english please' }],
    ])('refuses %s (BAD_REQUEST_BODY)', async (_label, styling) => {
      const { workflow, document, signer } = await setup();
      await expectRejected(workflow.id, post(document.id, fieldEntry(signer.id, { styling })), 400, 'BAD_REQUEST_BODY');
    });
  });

  it('refuses a positive signatureAssetId on a type that takes no library entry, and stores 0 or negative as no link', async () => {
    const { workflow, document, signer } = await setup();
    await expectRejected(
      workflow.id,
      post(document.id, fieldEntry(signer.id, { signatureAssetId: 5 })),
      400,
      'INVALID_FIELD',
    );
    expect((await post(document.id, fieldEntry(signer.id, { signatureAssetId: 0 }))).status).toBe(200);
    expect((await post(document.id, fieldEntry(signer.id, { fieldType: 'STAMP', signatureAssetId: -4 }))).status).toBe(
      200,
    );
    expect((await storedFields(t, workflow.id)).map((f) => f.signatureAssetId)).toEqual([null, null]);
  });

  describe('who may add', () => {
    it.each(['SENT', 'COMPLETED', 'VOID'])('refuses a %s workflow', async (status) => {
      const { workflow, document, signer } = await setup();
      await setWorkflow(t, workflow.id, { status });
      await expectRejected(workflow.id, post(document.id, fieldEntry(signer.id)), 400, 'INVALID_WORKFLOW_STATUS');
    });

    it('answers 404 to a stranger and for an unknown document, 403 to a signing-link token, INVALID_WORKFLOW_OWNER to a recipient', async () => {
      const { workflow, document } = await setup();
      const member = await createUser(t);
      const row = await insertRecipient(t, workflow.id, {
        userId: member.userId,
        name: 'Member Person',
        email: member.email,
      });
      const entry = fieldEntry(row.id);
      await expectRejected(workflow.id, post(document.id, entry, (await createUser(t)).token), 404, 'NOT_FOUND');
      await expectRejected(workflow.id, post(2147483000, entry), 404, 'NOT_FOUND');
      await expectRejected(
        workflow.id,
        post(document.id, entry, await guestToken(t, row)),
        403,
        'USER_NOT_HAVE_ACCESS',
      );
      await markSent(t, workflow.id, [row.id]);
      await expectRejected(workflow.id, post(document.id, entry, member.token), 400, 'INVALID_WORKFLOW_OWNER');
    });
  });
});

describe('adding several fields (fields/list)', () => {
  const postList = (body: unknown, token = owner.token) =>
    t.request('POST', '/workflow/v1/fields/list', { token, body });

  it('creates fields on several documents of one workflow and answers them in request order', async () => {
    const { workflow, document, signer } = await setup();
    const second = await addDocument(t, workflow.id, [{ width: 595, height: 842, rotation: 0 }]);
    const res = await postList([
      {
        documentId: second.id,
        ...fieldEntry(signer.id, { fieldType: 'DATE', box: { x: 400, y: 800, width: 195, height: 42 } }),
      },
      { documentId: document.id, ...fieldEntry(signer.id, { fieldType: 'SIGNATURE' }) },
      { documentId: second.id, ...fieldEntry(signer.id, { fieldType: 'DROPDOWN', options: ['A', 'B'] }) },
    ]);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.map((f: any) => [f.documentId, f.fieldType])).toEqual([
      [second.id, 'DATE'],
      [document.id, 'SIGNATURE'],
      [second.id, 'DROPDOWN'],
    ]);
    expect((await storedFields(t, workflow.id)).map((f) => f.id)).toEqual(res.body.map((f: any) => f.id));
  });

  it('writes nothing when one entry breaks a rule, and names that entry', async () => {
    const { workflow, document, signer } = await setup();
    const res = await expectRejected(
      workflow.id,
      postList([
        { documentId: document.id, ...fieldEntry(signer.id) },
        { documentId: document.id, ...fieldEntry(signer.id) },
        { documentId: document.id, ...fieldEntry(signer.id, { box: { x: 500, y: 72, width: 113, height: 40 } }) },
      ]),
      400,
      'INVALID_FIELD',
    );
    expect(res.body.responseBody).toEqual({ index: 2, field: 'box' });
  });

  it("refuses documents of two workflows, even both the caller's (INVALID_REQUEST_BODY)", async () => {
    const first = await setup();
    const second = await setup();
    await expectRejected(
      first.workflow.id,
      postList([
        { documentId: first.document.id, ...fieldEntry(first.signer.id) },
        { documentId: second.document.id, ...fieldEntry(second.signer.id) },
      ]),
      400,
      'INVALID_REQUEST_BODY',
    );
    expect(await storedFields(t, second.workflow.id)).toEqual([]);
  });

  it('answers 404 for a document the caller cannot see or that does not exist, and 400 for an empty list', async () => {
    const mine = await setup();
    const someone = await createUser(t);
    const theirs = await createDraftWorkflow(t, someone);
    await expectRejected(
      mine.workflow.id,
      postList([
        { documentId: mine.document.id, ...fieldEntry(mine.signer.id) },
        { documentId: theirs.document.id, ...fieldEntry(mine.signer.id) },
      ]),
      404,
      'NOT_FOUND',
    );
    const missing = await expectRejected(
      mine.workflow.id,
      postList([{ documentId: 2147483000, ...fieldEntry(mine.signer.id) }]),
      404,
      'NOT_FOUND',
    );
    expect(missing.body.responseBody).toEqual({ index: 0, field: 'documentId' });
    await expectRejected(mine.workflow.id, postList([]), 400, 'BAD_REQUEST_BODY');
    await expectRejected(mine.workflow.id, postList([fieldEntry(mine.signer.id)]), 400, 'BAD_REQUEST_BODY');
  });
});
