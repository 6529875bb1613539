import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, guestToken, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { markSent, setRecipient, setWorkflow } from '../helpers/envelope-states.ts';
import { recipientEntry, storedRecipients, userByEmail } from '../helpers/recipients.ts';
import { verifyPassword } from '../../src/platform/auth/passwords.ts';

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
  'name',
  'emailAddress',
  'recipientRole',
  'recipientOrder',
  'recipientColor',
  'useDigitalCert',
  'enforceIdentity',
  'status',
].sort();

async function post(workflowId: number, body: unknown, token = owner.token) {
  return t.request('POST', `/workflow/v1/${workflowId}/recipients`, { token, body });
}

/** Expects a 400 with the given error identifier and that the workflow's recipient rows did not change. */
async function expectRejected(workflowId: number, body: unknown, message: string, errorCode?: number) {
  const before = await storedRecipients(t, workflowId);
  const res = await post(workflowId, body);
  expect(res.status, res.raw).toBe(400);
  expect(res.body.message).toBe(message);
  if (errorCode !== undefined) expect(res.body.errorCode).toBe(errorCode);
  expect(await storedRecipients(t, workflowId)).toEqual(before);
  return res;
}

describe('adding recipients', () => {
  it('answers the created recipients in request order, in the read shape, with guest users for unknown emails', async () => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const registered = await createUser(t, { name: 'Grace Hopper' });
    const res = await post(workflow.id, [
      recipientEntry({
        name: 'Zoë Ölçer',
        emailAddress: 'Zoe.Olcer@Example.COM',
        recipientRole: '',
        recipientPassword: 's3cret-pass',
        enforceIdentity: true,
      }),
      recipientEntry({
        name: 'Grace Hopper',
        emailAddress: registered.email.toUpperCase(),
        recipientRole: 'APPROVER',
        useDigitalCert: true,
      }),
      recipientEntry({ name: '李小龙', emailAddress: 'bruce@example.com', recipientRole: 'CC', recipientOrder: '3' }),
      recipientEntry({ name: '  Trimmed Name  ', emailAddress: 'trim@example.com', recipientRole: undefined }),
    ]);
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toHaveLength(4);
    for (const item of res.body) expect(Object.keys(item).sort()).toEqual(READ_KEYS);
    expect(res.body[0]).toMatchObject({
      name: 'Zoë Ölçer',
      emailAddress: 'zoe.olcer@example.com',
      recipientRole: 'SIGNER',
      recipientOrder: null,
      recipientColor: '#FF8800',
      useDigitalCert: false,
      enforceIdentity: true,
      status: 'PENDING',
    });
    expect(res.body[1]).toMatchObject({
      emailAddress: registered.email,
      recipientRole: 'APPROVER',
      useDigitalCert: true,
      enforceIdentity: false,
    });
    expect(res.body[2]).toMatchObject({ name: '李小龙', recipientRole: 'CC', recipientOrder: '3' });
    expect(res.body[3]).toMatchObject({ name: 'Trimmed Name', recipientRole: 'SIGNER' });
    expect(res.raw).not.toContain('s3cret-pass');
    expect(res.raw).not.toMatch(/password/i);

    const rows = await storedRecipients(t, workflow.id);
    expect(rows.map((r) => r.id)).toEqual(res.body.map((r: any) => r.id));
    const guest = await userByEmail(t, 'zoe.olcer@example.com');
    expect(guest?.isGuest).toBe(true);
    expect(rows[0].userId).toBe(guest!.id);
    expect(rows[1].userId).toBe(registered.userId);
    expect(rows[0].passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(rows[0].passwordHash!, 's3cret-pass')).toBe(true);
    expect(rows[1].passwordHash).toBeNull();
  });

  it('reuses one guest user for the same unknown email across workflows', async () => {
    const first = await createDraftWorkflow(t, owner);
    const second = await createDraftWorkflow(t, owner);
    await post(first.workflow.id, [recipientEntry({ emailAddress: 'shared-guest@example.com' })]);
    await post(second.workflow.id, [recipientEntry({ emailAddress: 'SHARED-guest@example.com' })]);
    const [a] = await storedRecipients(t, first.workflow.id);
    const [b] = await storedRecipients(t, second.workflow.id);
    expect(a.userId).toBe(b.userId);
  });

  describe('name: 2-50 letters with single interior spaces (400 RECIPIENT_NAME_INVALID, errorCode 11001)', () => {
    it.each([
      ['two characters', 'Al'],
      ['fifty characters', `${'A'.repeat(25)} ${'B'.repeat(24)}`],
      ['letters of other scripts', 'Ólafur Þór Ñúñez'],
      ['decomposed accents', 'Jose\u0301 Garci\u0301a'],
    ])('accepts %s', async (_label, name) => {
      const { workflow } = await createDraftWorkflow(t, owner);
      const res = await post(workflow.id, [recipientEntry({ name })]);
      expect(res.status, res.raw).toBe(200);
      expect(res.body[0].name).toBe(name.normalize('NFC'));
    });

    it.each([
      ['one character', 'A', /between 2 and 50/],
      ['fifty-one characters', `${'A'.repeat(25)} ${'B'.repeat(25)}`, /between 2 and 50/],
      ['an empty string', '', /between 2 and 50/],
      ['only spaces', '    ', /between 2 and 50/],
      ['a null name', null, /between 2 and 50/],
      ['a double interior space', 'Ada  Lovelace', /letters/],
      ['digits', 'Agent 007', /letters/],
      ['a leading hyphen', '-Jean', /letters/],
      ['an apostrophe after a space', "Ada 'Bo", /letters/],
      ['a tab between words', 'Ada\tLovelace', /letters/],
    ])('refuses %s', async (_label, name, description) => {
      const { workflow } = await createDraftWorkflow(t, owner);
      const res = await expectRejected(workflow.id, [recipientEntry({ name })], 'RECIPIENT_NAME_INVALID', 11001);
      expect(res.body.errorDescription).toMatch(description);
      expect(res.body.responseBody).toEqual({ index: 0, field: 'name' });
    });

    it('refuses a missing name with 11001', async () => {
      const { workflow } = await createDraftWorkflow(t, owner);
      await expectRejected(workflow.id, [recipientEntry({ name: undefined })], 'RECIPIENT_NAME_INVALID', 11001);
    });
  });

  describe('other members', () => {
    it('accepts an email of 255 characters and refuses one of 256', async () => {
      const { workflow } = await createDraftWorkflow(t, owner);
      const at255 = `${'a'.repeat(243)}@example.com`;
      expect(at255).toHaveLength(255);
      const ok = await post(workflow.id, [recipientEntry({ emailAddress: at255 })]);
      expect(ok.status, ok.raw).toBe(200);
      await expectRejected(workflow.id, [recipientEntry({ emailAddress: `b${at255}` })], 'BAD_REQUEST_BODY');
    });

    it.each([['not-an-email'], ['two@@example.com'], ['nodot@example'], [' spaced@example.com'], ['']])(
      'refuses the email %j',
      async (emailAddress) => {
        const { workflow } = await createDraftWorkflow(t, owner);
        await expectRejected(workflow.id, [recipientEntry({ emailAddress })], 'BAD_REQUEST_BODY');
      },
    );

    it.each([['#12345'], ['#1234567'], ['red'], ['123456'], ['#GGGGGG'], ['']])(
      'refuses the colour %j',
      async (recipientColor) => {
        const { workflow } = await createDraftWorkflow(t, owner);
        await expectRejected(workflow.id, [recipientEntry({ recipientColor })], 'BAD_REQUEST_BODY');
      },
    );

    it('accepts a mixed-case #RRGGBB colour', async () => {
      const { workflow } = await createDraftWorkflow(t, owner);
      const res = await post(workflow.id, [recipientEntry({ recipientColor: '#a1B2c3' })]);
      expect(res.body[0].recipientColor).toBe('#a1B2c3');
    });

    it.each([
      ['a missing email', { emailAddress: undefined }],
      ['a missing colour', { recipientColor: undefined }],
      ['a missing useDigitalCert', { useDigitalCert: undefined }],
      ['useDigitalCert as a string', { useDigitalCert: 'true' }],
      ['an unknown role', { recipientRole: 'OWNER' }],
      ['a lower-case role', { recipientRole: 'signer' }],
      ['enforceIdentity as a number', { enforceIdentity: 1 }],
    ])('refuses %s', async (_label, overrides) => {
      const { workflow } = await createDraftWorkflow(t, owner);
      await expectRejected(workflow.id, [recipientEntry(overrides)], 'BAD_REQUEST_BODY');
    });

    it('refuses an empty array and a body that is not an array', async () => {
      const { workflow } = await createDraftWorkflow(t, owner);
      await expectRejected(workflow.id, [], 'BAD_REQUEST_BODY');
      await expectRejected(workflow.id, recipientEntry(), 'BAD_REQUEST_BODY');
    });

    it('writes nothing, not even a guest user, when a later entry is invalid', async () => {
      const { workflow } = await createDraftWorkflow(t, owner);
      const res = await expectRejected(
        workflow.id,
        [recipientEntry({ emailAddress: 'first-of-two@example.com' }), recipientEntry({ name: 'X' })],
        'RECIPIENT_NAME_INVALID',
        11001,
      );
      expect(res.body.responseBody).toEqual({ index: 1, field: 'name' });
      expect(await userByEmail(t, 'first-of-two@example.com')).toBeNull();
    });
  });

  describe('under ORDERED', () => {
    it('takes recipientOrder as a number or a digit string and answers it as a string', async () => {
      const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'ORDERED' });
      const res = await post(workflow.id, [
        recipientEntry({ recipientOrder: 2 }),
        recipientEntry({ recipientOrder: '1' }),
      ]);
      expect(res.status, res.raw).toBe(200);
      expect(res.body.map((r: any) => r.recipientOrder)).toEqual(['2', '1']);
    });

    it.each([
      ['missing', { recipientOrder: undefined }, 'INVALID_RECIPIENT'],
      ['null', { recipientOrder: null }, 'INVALID_RECIPIENT'],
      ['blank', { recipientOrder: '' }, 'INVALID_RECIPIENT'],
      ['zero', { recipientOrder: 0 }, 'BAD_REQUEST_BODY'],
      ['"0"', { recipientOrder: '0' }, 'BAD_REQUEST_BODY'],
      ['negative', { recipientOrder: -1 }, 'BAD_REQUEST_BODY'],
      ['fractional', { recipientOrder: 1.5 }, 'BAD_REQUEST_BODY'],
      ['not digits', { recipientOrder: 'first' }, 'BAD_REQUEST_BODY'],
    ])('refuses an order that is %s', async (_label, overrides, message) => {
      const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'ORDERED' });
      await expectRejected(workflow.id, [recipientEntry(overrides)], message);
    });

    it('refuses a repeated order or email inside one call (DUPLICATE_RECIPIENT)', async () => {
      const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'ORDERED' });
      const orders = await expectRejected(
        workflow.id,
        [recipientEntry({ recipientOrder: 1 }), recipientEntry({ recipientOrder: '1' })],
        'DUPLICATE_RECIPIENT',
      );
      expect(orders.body.responseBody).toEqual({ index: 1, field: 'recipientOrder' });
      const emails = await expectRejected(
        workflow.id,
        [
          recipientEntry({ recipientOrder: 1, emailAddress: 'same@example.com' }),
          recipientEntry({ recipientOrder: 2, emailAddress: 'SAME@example.com' }),
        ],
        'DUPLICATE_RECIPIENT',
      );
      expect(emails.body.responseBody).toEqual({ index: 1, field: 'emailAddress' });
    });

    it('refuses an order or email already stored (DUPLICATE_RECIPIENT)', async () => {
      const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'ORDERED' });
      await post(workflow.id, [recipientEntry({ recipientOrder: 1, emailAddress: 'stored@example.com' })]);
      await expectRejected(workflow.id, [recipientEntry({ recipientOrder: 1 })], 'DUPLICATE_RECIPIENT');
      await expectRejected(
        workflow.id,
        [recipientEntry({ recipientOrder: 2, emailAddress: 'Stored@Example.com' })],
        'DUPLICATE_RECIPIENT',
      );
      const ok = await post(workflow.id, [recipientEntry({ recipientOrder: 2 })]);
      expect(ok.status).toBe(200);
    });

    it('ignores hidden assistant rows when looking for duplicates', async () => {
      const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'ORDERED' });
      const assistant = await createUser(t);
      const hidden = await insertRecipient(t, workflow.id, {
        userId: assistant.userId,
        name: 'Assistant',
        email: assistant.email,
        recipientOrder: 1,
      });
      await setRecipient(t, hidden.id, { isHidden: true });
      const res = await post(workflow.id, [recipientEntry({ recipientOrder: 1, emailAddress: assistant.email })]);
      expect(res.status, res.raw).toBe(200);
    });
  });

  it('allows a repeated email and no order under UNORDERED', async () => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const res = await post(workflow.id, [
      recipientEntry({ emailAddress: 'twice@example.com' }),
      recipientEntry({ emailAddress: 'twice@example.com', recipientOrder: '' }),
    ]);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.map((r: any) => r.recipientOrder)).toEqual([null, null]);
  });

  it("refuses any recipient on a SELF workflow, whose only row stays the owner's", async () => {
    const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
    await expectRejected(workflow.id, [recipientEntry()], 'OPERATION_IS_NOT_ALLOWED');
    await expectRejected(workflow.id, [recipientEntry({ emailAddress: owner.email })], 'OPERATION_IS_NOT_ALLOWED');
    const rows = await storedRecipients(t, workflow.id);
    expect(rows.map((r) => r.userId)).toEqual([owner.userId]);
  });

  it('accepts only SIGNER recipients on a Power Survey', async () => {
    const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'SURVEY' });
    for (const recipientRole of ['APPROVER', 'CC']) {
      const res = await expectRejected(
        workflow.id,
        [recipientEntry(), recipientEntry({ recipientRole })],
        'OPERATION_IS_NOT_ALLOWED',
      );
      expect(res.body.responseBody).toEqual({ index: 1, field: 'recipientRole' });
    }
    const ok = await post(workflow.id, [
      recipientEntry({ recipientRole: 'SIGNER' }),
      recipientEntry({ recipientRole: '' }),
      recipientEntry({ recipientRole: null }),
    ]);
    expect(ok.status, ok.raw).toBe(200);
    expect(ok.body.map((r: any) => r.recipientRole)).toEqual(['SIGNER', 'SIGNER', 'SIGNER']);
  });

  it.each(['SENT', 'COMPLETED', 'VOID', 'APPROVED'])(
    'refuses a %s workflow (INVALID_WORKFLOW_STATUS)',
    async (status) => {
      const { workflow } = await createDraftWorkflow(t, owner);
      await setWorkflow(t, workflow.id, { status });
      await expectRejected(workflow.id, [recipientEntry()], 'INVALID_WORKFLOW_STATUS');
    },
  );

  describe('who may add', () => {
    it('answers 404 to a user who cannot see the workflow, and for a workflow that does not exist', async () => {
      const { workflow } = await createDraftWorkflow(t, owner);
      const stranger = await createUser(t);
      const res = await post(workflow.id, [recipientEntry()], stranger.token);
      expect(res.status).toBe(404);
      expect((await post(2147483000, [recipientEntry()])).status).toBe(404);
      expect(await storedRecipients(t, workflow.id)).toEqual([]);
    });

    it('answers INVALID_WORKFLOW_OWNER to a recipient who can see the workflow', async () => {
      const { workflow } = await createDraftWorkflow(t, owner);
      const signer = await createUser(t);
      const row = await insertRecipient(t, workflow.id, { userId: signer.userId, name: 'Signer', email: signer.email });
      await markSent(t, workflow.id, [row.id]);
      const res = await post(workflow.id, [recipientEntry()], signer.token);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('INVALID_WORKFLOW_OWNER');
    });

    it('refuses a signing-link token with 403', async () => {
      const { workflow } = await createDraftWorkflow(t, owner);
      const signer = await createUser(t);
      const row = await insertRecipient(t, workflow.id, { userId: signer.userId, name: 'Signer', email: signer.email });
      const res = await post(workflow.id, [recipientEntry()], await guestToken(t, row));
      expect(res.status).toBe(403);
      expect(await storedRecipients(t, workflow.id)).toHaveLength(1);
    });
  });
});
