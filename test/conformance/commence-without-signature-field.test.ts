import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import { insertField } from '../helpers/factories.ts';
import { commence, draftForSending, guestFromMail } from '../helpers/signing.ts';

/*
 * SPEC.md's commence refuses for no recipients, a wrong status or owner, or a plan that disallows sharing. RUNTIME.md
 * "Request shapes": commence refuses only for SPEC.md's conditions; a signer without a signature field finishes when its
 * required fields are filled (the web app warns the sender before sending: test/e2e/editor-documents.test.ts).
 */
describe('commence sends a workflow whose signer has no signature field', () => {
  test('a signer with only a required TEXT field: 200, the signer finishes by filling it, the workflow completes', async ({
    app: t,
    owner,
  }) => {
    const { workflow, document, rows } = await draftForSending(t, owner, {
      recipients: [{ name: 'Tex Filler', signatureField: false }],
    });
    const text = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: rows[0].id,
      fieldType: 'TEXT',
      fieldRequired: true,
    });
    const sent = await commence(t, owner, workflow.id, { title: 'Fill this' });
    expect(sent.status, sent.raw).toBe(200);
    const { token } = await guestFromMail(t, rows[0].email);
    const empty = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, { token, body: [] });
    expect([empty.status, empty.body.recipientStatus]).toEqual([200, 'VIEWED']);
    const filled = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, {
      token,
      body: [{ id: text.id, type: 'TEXT', value: 'ACME Ltd' }],
    });
    expect(filled.status, filled.raw).toBe(200);
    expect(filled.body).toMatchObject({ recipientStatus: 'SIGNED', workflowStatus: 'COMPLETED' });
  });

  test('a signer with no field at all: 200, and an empty save finishes it', async ({ app: t, owner }) => {
    const { workflow, document, rows } = await draftForSending(t, owner, {
      recipients: [{ name: 'Nora None', signatureField: false }, { name: 'Sig Signer' }],
    });
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    const { token } = await guestFromMail(t, rows[0].email);
    const res = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, { token, body: [] });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toMatchObject({ recipientStatus: 'SIGNED', workflowStatus: 'SENT' });
  });

  test("SPEC.md's own conditions still refuse: no recipient, only CC", async ({ app: t, owner }) => {
    const none = await draftForSending(t, owner, { recipients: [] });
    expect((await commence(t, owner, none.workflow.id)).body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    const cc = await draftForSending(t, owner, { recipients: [{ name: 'Cee Copy', role: 'CC' }] });
    expect((await commence(t, owner, cc.workflow.id)).body.message).toBe('OPERATION_IS_NOT_ALLOWED');
  });
});
