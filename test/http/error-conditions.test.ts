import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import { createDraftWorkflow } from '../helpers/factories.ts';
import { setWorkflow } from '../helpers/envelope-states.ts';
import { uploadFile } from '../helpers/documents.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';

/**
 * SPEC.md "Errors", common conditions: the errorDescription of each condition is the condition's own text,
 * whatever the case; what the service says about the case travels in responseBody.detail.
 */
describe("common conditions keep SPEC.md's errorDescription", () => {
  test('Invalid workflow status, with the case in responseBody.detail', async ({ app: t, owner }) => {
    const { workflow, document } = await createDraftWorkflow(t, owner);
    await setWorkflow(t, workflow.id, { status: 'VOID' });
    const res = await t.request('PUT', `/document/v1/${document.id}`, {
      token: owner.token,
      body: { name: 'Renamed' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: 'INVALID_WORKFLOW_STATUS', errorDescription: 'Invalid workflow status' });
    expect(res.body.responseBody.detail).toMatch(/VOID/);
  });

  test('Invalid document type', async ({ app: t, owner }) => {
    const res = await uploadFile(t, owner.token, 'notes.txt', await makePdf(1));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: 'INVALID_DOCUMENT_TYPE', errorDescription: 'Invalid document type' });
    expect(res.body.responseBody.detail).toContain('notes.txt');
  });

  test('Link or code expired', async ({ app: t }) => {
    const res = await t.request('GET', '/auth/v1/getGuestToken/not-a-real-code');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: 'LINK_EXPIRED', errorDescription: 'Link or code expired' });
  });

  test('keeps a case-specific description for errors that are not common conditions', async ({ app: t, owner }) => {
    const { document } = await createDraftWorkflow(t, owner);
    const res = await t.request('PUT', `/document/v1/${document.id}`, {
      token: owner.token,
      body: { name: 'x'.repeat(51) },
    });
    expect(res.status).toBe(400);
    expect(res.body.errorDescription).toMatch(/1-50 characters/);
  });
});
