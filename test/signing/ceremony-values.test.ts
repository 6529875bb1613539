import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import {
  activityKinds,
  fieldRow,
  pngBytes,
  pngDataUrl,
  recipientRow,
  sentEnvelope,
  type FieldSpec,
} from '../helpers/ceremony.ts';

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olivia Owner' });
});
afterAll(async () => t?.close());

async function save(token: string, documentId: number, body: unknown) {
  return t.request('POST', `/workflow/v1/${documentId}/fields/save`, { token, body });
}

describe('fields/save: values by type', () => {
  it('stores each type in canonical form and leaves the signer unfinished while a required field is empty', async () => {
    const env = await sentEnvelope(t, owner, [
      { fieldType: 'TEXT' },
      { fieldType: 'CHECKBOX' },
      { fieldType: 'DATE' },
      { fieldType: 'NUMBER' },
      { fieldType: 'EMAIL' },
      { fieldType: 'DROPDOWN', options: ['Red', 'Green'] },
      { fieldType: 'TEXTAREA' },
      { fieldType: 'IMAGE' },
      { fieldType: 'NAME', fieldRequired: true },
      { fieldType: 'SIGNATURE' },
    ]);
    const [text, checkbox, date, number, email, dropdown, textarea, image, name, signature] = env.fields;
    const res = await save(env.aliceToken, env.document.id, [
      { id: text.id, type: 'TEXT', value: '  hello  ' },
      { id: checkbox.id, type: 'CHECKBOX', value: true },
      { id: date.id, type: 'DATE', value: '2024-02-29' },
      { id: number.id, type: 'NUMBER', value: -12.5 },
      { id: email.id, type: 'EMAIL', value: 'a.b@example.org' },
      { id: dropdown.id, type: 'DROPDOWN', value: 'Green' },
      { id: textarea.id, type: 'TEXTAREA', value: 'line one\nline two' },
      { id: image.id, type: 'IMAGE', value: pngDataUrl(5, 5) },
      { id: signature.id, type: 'SIGNATURE', value: pngDataUrl() },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      workflowId: env.workflow.id,
      recipientId: env.alice.id,
      recipientStatus: 'SENT',
      workflowStatus: 'SENT',
      sealStatus: 'NONE',
    });
    expect(res.body.savedFieldIds).toHaveLength(9);
    expect((await fieldRow(t, text.id)).value).toBe('hello');
    expect((await fieldRow(t, checkbox.id)).value).toBe('true');
    expect((await fieldRow(t, number.id)).value).toBe('-12.5');
    expect((await fieldRow(t, textarea.id)).value).toBe('line one\nline two');
    // Stored re-encoded (test/signing/image-values.test.ts): a PNG of the same size.
    const stored = Buffer.from(
      (await fieldRow(t, signature.id)).value!.replace(/^data:image\/png;base64,/, ''),
      'base64',
    );
    expect([stored.readUInt32BE(16), stored.readUInt32BE(20)]).toEqual([40, 12]);
    expect((await fieldRow(t, signature.id)).filledAt).not.toBeNull();
    // The required NAME is still empty: Alice has not finished.
    expect((await recipientRow(t, env.alice.id)).status).toBe('SENT');

    const finish = await save(env.aliceToken, env.document.id, [
      { id: name.id, type: 'NAME', value: 'Alice Signer' },
      { id: checkbox.id, type: 'CHECKBOX', value: 'false' },
    ]);
    expect(finish.status, JSON.stringify(finish.body)).toBe(200);
    expect(finish.body).toMatchObject({ recipientStatus: 'SIGNED', workflowStatus: 'SENT' });
    expect((await fieldRow(t, checkbox.id)).value).toBe('false');
    const row = await recipientRow(t, env.alice.id);
    expect(row.status).toBe('SIGNED');
    expect(row.actedAt).not.toBeNull();
    expect(await activityKinds(t, env.workflow.id)).toEqual(['CONSENT_ACCEPTED', 'SIGNED']);
  });

  it('a string NUMBER, an empty optional field and an empty optional STAMP are accepted; clearing stores null', async () => {
    const env = await sentEnvelope(t, owner, [
      { fieldType: 'NUMBER' },
      { fieldType: 'TEXT' },
      { fieldType: 'STAMP' },
      { fieldType: 'INITIALS' },
    ]);
    const [number, text, stamp] = env.fields;
    await save(env.aliceToken, env.document.id, [{ id: text.id, type: 'TEXT', value: 'first' }]);
    const res = await save(env.aliceToken, env.document.id, [
      { id: number.id, type: 'NUMBER', value: ' 1e3 ' },
      { id: text.id, type: 'TEXT', value: '   ' },
      { id: stamp.id, type: 'STAMP', value: null },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await fieldRow(t, number.id)).value).toBe('1e3');
    expect((await fieldRow(t, text.id)).value).toBeNull();
    expect((await fieldRow(t, text.id)).filledAt).toBeNull();
    expect((await fieldRow(t, stamp.id)).value).toBeNull();
    // The INITIALS field was never filled, so Alice is not finished.
    expect(res.body.recipientStatus).toBe('SENT');
  });

  const wrong: [string, FieldSpec, unknown, string][] = [
    ['CHECKBOX "yes"', { fieldType: 'CHECKBOX' }, 'yes', 'INVALID_FIELD_VALUE'],
    ['NUMBER "abc"', { fieldType: 'NUMBER' }, 'abc', 'INVALID_FIELD_VALUE'],
    ['NUMBER "Infinity"', { fieldType: 'NUMBER' }, 'Infinity', 'INVALID_FIELD_VALUE'],
    ['NUMBER true', { fieldType: 'NUMBER' }, true, 'INVALID_FIELD_VALUE'],
    ['DATE not a calendar date', { fieldType: 'DATE' }, '2026-02-30', 'INVALID_FIELD_VALUE'],
    ['DATE in another format', { fieldType: 'DATE' }, '14/03/2026', 'INVALID_FIELD_VALUE'],
    ['EMAIL without a domain', { fieldType: 'EMAIL' }, 'someone@', 'INVALID_FIELD_VALUE'],
    ['DROPDOWN not an option', { fieldType: 'DROPDOWN', options: ['Red', 'Green'] }, 'Blue', 'INVALID_FIELD_VALUE'],
    ['TEXT too long', { fieldType: 'TEXT' }, 'x'.repeat(256), 'INVALID_FIELD_VALUE'],
    ['TEXT as a number', { fieldType: 'TEXT' }, 12, 'INVALID_FIELD_VALUE'],
    ['TEXTAREA too long', { fieldType: 'TEXTAREA' }, 'y'.repeat(5001), 'INVALID_FIELD_VALUE'],
    ['SIGNATURE not a data URL', { fieldType: 'SIGNATURE' }, 'my signature', 'INVALID_FIELD_VALUE'],
    [
      'SIGNATURE as JPEG',
      { fieldType: 'SIGNATURE' },
      `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]).toString('base64')}`,
      'INVALID_FIELD_VALUE',
    ],
    [
      'SIGNATURE claiming PNG with other bytes',
      { fieldType: 'SIGNATURE' },
      `data:image/png;base64,${Buffer.from('GIF89a-not-a-png-at-all-but-long-enough-to-pass-the-minimum').toString('base64')}`,
      'INVALID_FIELD_VALUE',
    ],
    [
      'SIGNATURE with a truncated PNG',
      { fieldType: 'SIGNATURE' },
      `data:image/png;base64,${pngBytes(10, 10).subarray(0, 60).toString('base64')}`,
      'INVALID_FIELD_VALUE',
    ],
    ['SIGNATURE with broken base64', { fieldType: 'SIGNATURE' }, 'data:image/png;base64,@@@@', 'INVALID_FIELD_VALUE'],
    ['IMAGE as a boolean', { fieldType: 'IMAGE' }, true, 'INVALID_FIELD_VALUE'],
    ['empty SIGNATURE', { fieldType: 'SIGNATURE' }, '', 'REQUIRED_FIELD_EMPTY'],
    ['null INITIALS', { fieldType: 'INITIALS' }, null, 'REQUIRED_FIELD_EMPTY'],
    ['empty required STAMP', { fieldType: 'STAMP', fieldRequired: true }, null, 'REQUIRED_FIELD_EMPTY'],
    ['empty required TEXT', { fieldType: 'TEXT', fieldRequired: true }, ' ', 'REQUIRED_FIELD_EMPTY'],
    ['unticked required CHECKBOX', { fieldType: 'CHECKBOX', fieldRequired: true }, false, 'REQUIRED_FIELD_EMPTY'],
  ];
  it.each(wrong)('refuses %s with 400 and writes nothing', async (_label, spec, value, code) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'TEXT' }, spec]);
    const [plain, target] = env.fields;
    const res = await save(env.aliceToken, env.document.id, [
      { id: plain.id, type: 'TEXT', value: 'valid first entry' },
      { id: target.id, type: spec.fieldType, value },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toBe(code);
    expect(res.body.errorDescription).toContain(`Field ${target.id}`);
    expect((await fieldRow(t, plain.id)).value).toBeNull();
    expect((await fieldRow(t, target.id)).value).toBeNull();
    expect(await activityKinds(t, env.workflow.id)).toEqual([]);
  });

  it("refuses a type that differs from the field's, an unknown type, duplicate ids and a malformed body", async () => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'TEXT' }, { fieldType: 'SIGNATURE' }]);
    const [text] = env.fields;
    const mismatch = await save(env.aliceToken, env.document.id, [{ id: text.id, type: 'NAME', value: 'x' }]);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toBe('INVALID_FIELD');
    const unknown = await save(env.aliceToken, env.document.id, [{ id: text.id, type: 'SCRIBBLE', value: 'x' }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('BAD_REQUEST_BODY');
    const duplicate = await save(env.aliceToken, env.document.id, [
      { id: text.id, type: 'TEXT', value: 'a' },
      { id: text.id, type: 'TEXT', value: 'b' },
    ]);
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.message).toBe('INVALID_REQUEST_BODY');
    const notArray = await save(env.aliceToken, env.document.id, { id: text.id, type: 'TEXT', value: 'a' });
    expect(notArray.status).toBe(400);
    const missingValue = await save(env.aliceToken, env.document.id, [{ id: text.id, type: 'TEXT' }]);
    expect(missingValue.status).toBe(400);
    expect((await fieldRow(t, text.id)).value).toBeNull();
  });

  it('refuses a 10 MB data-URL image with a clear 400, and a body above the route limit too', async () => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    const [signature] = env.fields;
    const huge = `data:image/png;base64,${Buffer.alloc(7.5 * 1024 * 1024, 7).toString('base64')}`;
    expect(huge.length).toBeGreaterThan(10 * 1024 * 1024);
    const res = await save(env.aliceToken, env.document.id, [{ id: signature.id, type: 'SIGNATURE', value: huge }]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('INVALID_FIELD_VALUE');
    expect(res.body.errorDescription).toMatch(/at most 2 MB/);
    const sign = await t.request('POST', `/workflow/v1/${env.workflow.id}/sign`, {
      token: env.aliceToken,
      body: { id: signature.id, image: huge },
    });
    expect(sign.status).toBe(400);
    expect(sign.body.message).toBe('INVALID_FIELD_VALUE');
    const enormous = await save(env.aliceToken, env.document.id, [
      { id: signature.id, type: 'SIGNATURE', value: `${huge}${'A'.repeat(3 * 1024 * 1024)}` },
    ]);
    expect(enormous.status).toBe(400);
    expect(enormous.body.message).toBe('PAYLOAD_TOO_LARGE');
    expect((await fieldRow(t, signature.id)).value).toBeNull();
  });

  it('refuses a PNG that is too large in pixels', async () => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    const wide = pngBytes(9000, 1);
    const res = await save(env.aliceToken, env.document.id, [
      { id: env.fields[0].id, type: 'SIGNATURE', value: `data:image/png;base64,${wide.toString('base64')}` },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.errorDescription).toMatch(/pixels/);
  });
});
