import { describe, expect } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { fileUser, test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, guestToken, insertField, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { addDocument, readWorkflow, updateWorkflow } from '../helpers/document-list.ts';
import { comments, documents, fields } from '../../src/platform/db/schema/index.ts';

const test = base.extend<{ signer: TestUser; stranger: TestUser }>({
  signer: fileUser({ name: 'Sam Signer' }),
  stranger: fileUser({ name: 'Stan Stranger' }),
});

async function workflowIn(t: TestApp, owner: TestUser, signer: TestUser, status: string, user = owner) {
  const made = await createDraftWorkflow(t, user);
  const row = await insertRecipient(t, made.workflow.id, {
    userId: signer.userId,
    name: 'Sam Signer',
    email: signer.email,
  });
  if (status !== 'DRAFT') await updateWorkflow(t, made.workflow.id, { status });
  return { ...made, row };
}
const documentIdsOf = async (t: TestApp, workflowId: number) =>
  (await t.platform.db.select().from(documents).where(eq(documents.workflowId, workflowId))).map((d) => d.id);
const isDeleted = async (t: TestApp, workflowId: number) => (await readWorkflow(t, workflowId)).deletedAt !== null;

describe('DELETE /document/v1 (document ids)', () => {
  test('removes documents of a draft with their fields; comments on those fields stay, unlinked', async ({
    app: t,
    owner,
    signer,
  }) => {
    const { workflow, document, row } = await workflowIn(t, owner, signer, 'DRAFT');
    const annex = await addDocument(t, workflow.id, { name: 'Annex', position: 1 });
    const field = await insertField(t, {
      workflowId: workflow.id,
      documentId: annex.id,
      recipientId: row.id,
      fieldType: 'TEXT',
    });
    const [comment] = await t.platform.db
      .insert(comments)
      .values({ workflowId: workflow.id, fieldId: field.id, authorUserId: owner.userId, body: 'about the annex' })
      .returning();

    const res = await t.request('DELETE', '/document/v1', { token: owner.token, body: { ids: [annex.id, annex.id] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deletedDocumentIds: [annex.id], deletedWorkflowIds: [] });
    expect(await documentIdsOf(t, workflow.id)).toEqual([document.id]);
    expect(await t.platform.db.select().from(fields).where(eq(fields.id, field.id))).toEqual([]);
    const [kept] = await t.platform.db.select().from(comments).where(eq(comments.id, comment.id));
    expect(kept.fieldId).toBeNull();
    expect(await isDeleted(t, workflow.id)).toBe(false);
  });

  test('deletes a draft together with its last document', async ({ app: t, owner, signer }) => {
    const { workflow, document } = await workflowIn(t, owner, signer, 'DRAFT');
    const res = await t.request('DELETE', '/document/v1', { token: owner.token, body: { ids: [document.id] } });
    expect(res.body).toEqual({ deletedDocumentIds: [document.id], deletedWorkflowIds: [workflow.id] });
    expect(await isDeleted(t, workflow.id)).toBe(true);
    expect((await t.request('GET', `/document/v1/docs-detail/${workflow.id}`, { token: owner.token })).status).toBe(
      404,
    );
  });

  test('refuses documents of a workflow past DRAFT, of someone else, or unknown; all or nothing', async ({
    app: t,
    owner,
    signer,
    stranger,
  }) => {
    const draft = await workflowIn(t, owner, signer, 'DRAFT');
    const extra = await addDocument(t, draft.workflow.id, { name: 'Extra' });
    for (const status of ['SENT', 'COMPLETED', 'VOID']) {
      const out = await workflowIn(t, owner, signer, status);
      const res = await t.request('DELETE', '/document/v1', {
        token: owner.token,
        body: { ids: [extra.id, out.document.id] },
      });
      expect(res.status, status).toBe(400);
      expect(res.body.message).toBe('INVALID_WORKFLOW_STATUS');
      expect(await documentIdsOf(t, out.workflow.id)).toEqual([out.document.id]);
    }
    const sent = await workflowIn(t, owner, signer, 'SENT');
    const byRecipient = await t.request('DELETE', '/document/v1', {
      token: signer.token,
      body: { ids: [sent.document.id] },
    });
    expect(byRecipient.status).toBe(400);
    expect(byRecipient.body.message).toBe('INVALID_WORKFLOW_OWNER');
    expect(
      (await t.request('DELETE', '/document/v1', { token: stranger.token, body: { ids: [extra.id] } })).status,
    ).toBe(404);
    expect(
      (await t.request('DELETE', '/document/v1', { token: owner.token, body: { ids: [extra.id, 999999] } })).status,
    ).toBe(404);
    expect((await documentIdsOf(t, draft.workflow.id)).sort()).toEqual([draft.document.id, extra.id].sort());
  });

  test('refuses malformed bodies with 400', async ({ app: t, owner }) => {
    for (const body of [{}, { ids: [] }, { ids: ['1'] }, { ids: [0] }, { ids: 'x' }]) {
      expect(
        (await t.request('DELETE', '/document/v1', { token: owner.token, body })).status,
        JSON.stringify(body),
      ).toBe(400);
    }
  });
});

describe('DELETE /document/v1/{workflowId}', () => {
  test('soft-deletes a workflow in DRAFT, COMPLETED, VOID or APPROVED; it disappears for its recipients too', async ({
    app: t,
    owner,
    signer,
  }) => {
    for (const status of ['DRAFT', 'COMPLETED', 'VOID', 'APPROVED']) {
      const { workflow, document } = await workflowIn(t, owner, signer, status);
      const res = await t.request('DELETE', `/document/v1/${workflow.id}`, { token: owner.token });
      expect(res.status, status).toBe(200);
      expect(res.body).toEqual({ deletedDocumentIds: [], deletedWorkflowIds: [workflow.id] });
      expect(await isDeleted(t, workflow.id)).toBe(true);
      expect(await documentIdsOf(t, workflow.id)).toEqual([document.id]);
      const listed = (await t.request('GET', '/document/v1?size=1000', { token: signer.token })).body.content.map(
        (i: any) => i.workflowId,
      );
      expect(listed).not.toContain(workflow.id);
      expect((await t.request('GET', `/document/v1/${document.id}`, { token: signer.token })).status).toBe(404);
    }
  });

  test('refuses a SENT workflow (INVALID_WORKFLOW_STATUS), a recipient (INVALID_WORKFLOW_OWNER), strangers and guests', async ({
    app: t,
    owner,
    signer,
    stranger,
  }) => {
    const { workflow, row } = await workflowIn(t, owner, signer, 'SENT');
    const sent = await t.request('DELETE', `/document/v1/${workflow.id}`, { token: owner.token });
    expect(sent.status).toBe(400);
    expect(sent.body.message).toBe('INVALID_WORKFLOW_STATUS');
    const byRecipient = await t.request('DELETE', `/document/v1/${workflow.id}`, { token: signer.token });
    expect(byRecipient.body.message).toBe('INVALID_WORKFLOW_OWNER');
    expect((await t.request('DELETE', `/document/v1/${workflow.id}`, { token: stranger.token })).status).toBe(404);
    expect((await t.request('DELETE', `/document/v1/${workflow.id}`, { token: await guestToken(t, row) })).status).toBe(
      403,
    );
    expect(await isDeleted(t, workflow.id)).toBe(false);
    await updateWorkflow(t, workflow.id, { status: 'COMPLETED' });
    expect((await t.request('DELETE', `/document/v1/${workflow.id}`, { token: owner.token })).status).toBe(200);
    expect((await t.request('DELETE', `/document/v1/${workflow.id}`, { token: owner.token })).status).toBe(404);
  });

  test('a Power Survey parent takes its children along; a child alone is OPERATION_IS_NOT_ALLOWED', async ({
    app: t,
    owner,
  }) => {
    const parent = await createDraftWorkflow(t, owner, { sequence: 'SURVEY' });
    await updateWorkflow(t, parent.workflow.id, { status: 'COMPLETED' });
    const child = await createDraftWorkflow(t, owner, { sequence: 'SURVEY' });
    await updateWorkflow(t, child.workflow.id, { status: 'COMPLETED', parentWorkflowId: parent.workflow.id });
    const alone = await t.request('DELETE', `/document/v1/${child.workflow.id}`, { token: owner.token });
    expect(alone.status).toBe(400);
    expect(alone.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    expect((await t.request('DELETE', `/document/v1/${parent.workflow.id}`, { token: owner.token })).status).toBe(200);
    expect(await isDeleted(t, child.workflow.id)).toBe(true);
  });
});

describe('DELETE /document/v1/workflows', () => {
  test('deletes every listed workflow in one go', async ({ app: t, owner, signer }) => {
    const a = await workflowIn(t, owner, signer, 'DRAFT');
    const b = await workflowIn(t, owner, signer, 'COMPLETED');
    const res = await t.request('DELETE', '/document/v1/workflows', {
      token: owner.token,
      body: { workflowIds: `${a.workflow.id}, ${b.workflow.id},${a.workflow.id}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.deletedWorkflowIds).toEqual([a.workflow.id, b.workflow.id].sort((x, y) => x - y));
    expect(await isDeleted(t, a.workflow.id)).toBe(true);
    expect(await isDeleted(t, b.workflow.id)).toBe(true);
  });

  test('is all or nothing: one SENT, foreign or unknown id leaves every workflow in place', async ({
    app: t,
    owner,
    signer,
    stranger,
  }) => {
    const a = await workflowIn(t, owner, signer, 'DRAFT');
    const sent = await workflowIn(t, owner, signer, 'SENT');
    const foreign = await workflowIn(t, owner, signer, 'DRAFT', stranger);
    for (const [other, status] of [
      [sent.workflow.id, 400],
      [foreign.workflow.id, 404],
      [999999, 404],
    ] as const) {
      const res = await t.request('DELETE', '/document/v1/workflows', {
        token: owner.token,
        body: { workflowIds: `${a.workflow.id},${other}` },
      });
      expect(res.status, String(other)).toBe(status);
    }
    for (const id of [a.workflow.id, sent.workflow.id, foreign.workflow.id]) expect(await isDeleted(t, id)).toBe(false);
  });

  test('refuses a malformed list with 400', async ({ app: t, owner, signer }) => {
    const a = await workflowIn(t, owner, signer, 'DRAFT');
    for (const workflowIds of [
      '',
      'abc',
      `${a.workflow.id},`,
      `,${a.workflow.id}`,
      `${a.workflow.id};2`,
      '1,,2',
      '0',
      '-1',
      '3000000000',
      12,
      [1, 2],
    ]) {
      const res = await t.request('DELETE', '/document/v1/workflows', { token: owner.token, body: { workflowIds } });
      expect(res.status, JSON.stringify(workflowIds)).toBe(400);
    }
    expect((await t.request('DELETE', '/document/v1/workflows', { token: owner.token, body: {} })).status).toBe(400);
    expect(await isDeleted(t, a.workflow.id)).toBe(false);
  });
});

describe('PUT /document/v1/{workflowId}/change-sequence', () => {
  async function threeDocuments(t: TestApp, owner: TestUser, signer: TestUser) {
    const made = await workflowIn(t, owner, signer, 'DRAFT');
    const b = await addDocument(t, made.workflow.id, { name: 'B', position: 1 });
    const c = await addDocument(t, made.workflow.id, { name: 'C', position: 2 });
    return { ...made, a: made.document, b, c };
  }
  const positions = async (t: TestApp, ids: number[]) =>
    Object.fromEntries(
      (await t.platform.db.select().from(documents).where(inArray(documents.id, ids))).map((d) => [d.id, d.position]),
    );

  test('reorders every document of a draft and answers them in the new order', async ({ app: t, owner, signer }) => {
    const { workflow, a, b, c } = await threeDocuments(t, owner, signer);
    const res = await t.request('PUT', `/document/v1/${workflow.id}/change-sequence`, {
      token: owner.token,
      body: [
        { documentId: a.id, order: 30 },
        { documentId: b.id, order: 10 },
        { documentId: c.id, order: 20 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.map((d: any) => [d.id, d.position])).toEqual([
      [b.id, 0],
      [c.id, 1],
      [a.id, 2],
    ]);
    const detail = await t.request('GET', `/document/v1/docs-detail/${workflow.id}`, { token: owner.token });
    expect(detail.body.map((d: any) => d.id)).toEqual([b.id, c.id, a.id]);
  });

  test('needs every document exactly once with distinct orders (400 INVALID_REQUEST_BODY), changing nothing', async ({
    app: t,
    owner,
    signer,
  }) => {
    const { workflow, a, b, c } = await threeDocuments(t, owner, signer);
    const foreign = await workflowIn(t, owner, signer, 'DRAFT');
    const bodies = [
      [
        { documentId: a.id, order: 1 },
        { documentId: b.id, order: 2 },
      ],
      [
        { documentId: a.id, order: 1 },
        { documentId: b.id, order: 2 },
        { documentId: b.id, order: 3 },
      ],
      [
        { documentId: a.id, order: 1 },
        { documentId: b.id, order: 2 },
        { documentId: c.id, order: 3 },
        { documentId: foreign.document.id, order: 4 },
      ],
      [
        { documentId: a.id, order: 1 },
        { documentId: b.id, order: 1 },
        { documentId: c.id, order: 2 },
      ],
    ];
    for (const body of bodies) {
      const res = await t.request('PUT', `/document/v1/${workflow.id}/change-sequence`, { token: owner.token, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('INVALID_REQUEST_BODY');
    }
    for (const body of [[], {}, [{ documentId: a.id }], [{ documentId: a.id, order: -1 }]]) {
      expect(
        (await t.request('PUT', `/document/v1/${workflow.id}/change-sequence`, { token: owner.token, body })).status,
      ).toBe(400);
    }
    expect(await positions(t, [a.id, b.id, c.id])).toEqual({ [a.id]: 0, [b.id]: 1, [c.id]: 2 });
  });

  test('is owner and DRAFT only', async ({ app: t, owner, signer, stranger }) => {
    const { workflow, a, b, c } = await threeDocuments(t, owner, signer);
    const body = [
      { documentId: c.id, order: 0 },
      { documentId: b.id, order: 1 },
      { documentId: a.id, order: 2 },
    ];
    expect(
      (await t.request('PUT', `/document/v1/${workflow.id}/change-sequence`, { token: stranger.token, body })).status,
    ).toBe(404);
    await updateWorkflow(t, workflow.id, { status: 'SENT' });
    const sent = await t.request('PUT', `/document/v1/${workflow.id}/change-sequence`, { token: owner.token, body });
    expect(sent.body.message).toBe('INVALID_WORKFLOW_STATUS');
    const byRecipient = await t.request('PUT', `/document/v1/${workflow.id}/change-sequence`, {
      token: signer.token,
      body,
    });
    expect(byRecipient.body.message).toBe('INVALID_WORKFLOW_OWNER');
    expect(await positions(t, [a.id, b.id, c.id])).toEqual({ [a.id]: 0, [b.id]: 1, [c.id]: 2 });
  });
});
