import { describe, expect } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { fileUser, test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, guestToken, insertField, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { updateWorkflow } from '../helpers/document-list.ts';
import { activities, comments } from '../../src/platform/db/schema/index.ts';
import { verifyChain } from '../../src/modules/activities/activities.service.ts';

const test = base.override({ ownerName: 'Olivia Owner' }).extend<{ signer: TestUser; stranger: TestUser }>({
  signer: fileUser({ name: 'Sam Signer' }),
  stranger: fileUser({ name: 'Stan Stranger' }),
});

async function sentWithSigner(t: TestApp, owner: TestUser, signer: TestUser) {
  const { workflow, document } = await createDraftWorkflow(t, owner);
  const row = await insertRecipient(t, workflow.id, { userId: signer.userId, name: 'Sam Signer', email: signer.email });
  await updateWorkflow(t, workflow.id, { status: 'SENT', sentAt: new Date() });
  return { workflow, document, row };
}

const post = (t: TestApp, workflowId: number, body: unknown, token: string) =>
  t.request('POST', `/workflow/v1/${workflowId}/comments`, { token, body });
const commentCount = async (t: TestApp, workflowId: number) =>
  (await t.platform.db.select().from(comments).where(eq(comments.workflowId, workflowId))).length;
const commentActivities = async (t: TestApp, workflowId: number) =>
  (await t.platform.db.select().from(activities).where(eq(activities.workflowId, workflowId))).filter(
    (a) => a.kind === 'COMMENT_ADDED',
  );

describe('POST /workflow/v1/{workflowId}/comments', () => {
  test('saves the trimmed body, never stores documentId, and answers the comment with an ISO 8601 time', async ({
    app: t,
    owner,
    signer,
  }) => {
    const { workflow, document, row } = await sentWithSigner(t, owner, signer);
    const field = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: row.id,
      fieldType: 'TEXT',
    });
    const before = Date.now();
    const res = await post(
      t,
      workflow.id,
      { body: '  Please check clause 4.  ', fieldId: field.id, documentId: document.id },
      owner.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      workflowId: workflow.id,
      documentId: null,
      fieldId: field.id,
      authorUserId: owner.userId,
      body: 'Please check clause 4.',
      authorName: 'Olivia Owner',
    });
    expect(res.body.id).toBeGreaterThan(0);
    expect(res.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    expect(new Date(res.body.createdAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const [stored] = await t.platform.db.select().from(comments).where(eq(comments.id, res.body.id));
    expect(stored.body).toBe('Please check clause 4.');
  });

  test('accepts 1 and 3000 characters after trimming; refuses 3001, empty and whitespace-only with INVALID_REQUEST_BODY', async ({
    app: t,
    owner,
    signer,
  }) => {
    const { workflow } = await sentWithSigner(t, owner, signer);
    expect((await post(t, workflow.id, { body: 'x' }, owner.token)).status).toBe(200);
    expect((await post(t, workflow.id, { body: `   ${'y'.repeat(3000)}\n\t ` }, owner.token)).body.body).toHaveLength(
      3000,
    );
    for (const body of ['z'.repeat(3001), '', '    ', '\n\t  \n']) {
      const res = await post(t, workflow.id, { body }, owner.token);
      expect(res.status, JSON.stringify(body.slice(0, 5))).toBe(400);
      expect(res.body.message).toBe('INVALID_REQUEST_BODY');
    }
    expect((await post(t, workflow.id, {}, owner.token)).status).toBe(400);
    expect((await post(t, workflow.id, { body: 17 }, owner.token)).status).toBe(400);
    expect(await commentCount(t, workflow.id)).toBe(2);
  });

  test('refuses a fieldId that is not a field of this workflow', async ({ app: t, owner, signer }) => {
    const { workflow } = await sentWithSigner(t, owner, signer);
    const other = await sentWithSigner(t, owner, signer);
    const foreign = await insertField(t, {
      workflowId: other.workflow.id,
      documentId: other.document.id,
      recipientId: other.row.id,
      fieldType: 'TEXT',
    });
    for (const fieldId of [foreign.id, 987654]) {
      const res = await post(t, workflow.id, { body: 'About this field', fieldId }, owner.token);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('INVALID_REQUEST_BODY');
    }
    expect(await commentCount(t, workflow.id)).toBe(0);
  });

  test("lets a recipient comment with a user token and with the workflow's signing-link token", async ({
    app: t,
    owner,
    signer,
  }) => {
    const { workflow, row } = await sentWithSigner(t, owner, signer);
    expect((await post(t, workflow.id, { body: 'From my account' }, signer.token)).body.authorUserId).toBe(
      signer.userId,
    );
    const guest = await guestToken(t, row);
    const res = await post(t, workflow.id, { body: 'From the link' }, guest);
    expect(res.status).toBe(200);
    expect(res.body.authorUserId).toBe(signer.userId);
  });

  test('refuses everyone else with USER_NOT_HAVE_ACCESS (403), writing nothing; an unknown workflow is 404', async ({
    app: t,
    owner,
    signer,
    stranger,
  }) => {
    const { workflow } = await sentWithSigner(t, owner, signer);
    const other = await sentWithSigner(t, owner, signer);
    const otherGuest = await guestToken(t, other.row);
    for (const token of [stranger.token, otherGuest]) {
      const res = await post(t, workflow.id, { body: 'Let me in' }, token);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('USER_NOT_HAVE_ACCESS');
      expect((await t.request('GET', `/workflow/v1/${workflow.id}/comments`, { token })).status).toBe(403);
    }
    // A recipient of a workflow that is still DRAFT has been sent nothing yet.
    const draft = await createDraftWorkflow(t, owner);
    await insertRecipient(t, draft.workflow.id, { userId: signer.userId, name: 'Sam Signer', email: signer.email });
    expect((await post(t, draft.workflow.id, { body: 'Early' }, signer.token)).status).toBe(403);
    expect(await commentCount(t, workflow.id)).toBe(0);
    expect(await commentCount(t, draft.workflow.id)).toBe(0);
    expect((await post(t, 999999, { body: 'Anyone?' }, owner.token)).status).toBe(404);
  });

  test('refuses comments on a VOID workflow (read-only)', async ({ app: t, owner, signer }) => {
    const { workflow } = await sentWithSigner(t, owner, signer);
    await updateWorkflow(t, workflow.id, { status: 'VOID' });
    const res = await post(t, workflow.id, { body: 'Too late' }, owner.token);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('INVALID_WORKFLOW_STATUS');
    expect(await commentCount(t, workflow.id)).toBe(0);
  });

  test('records a COMMENT_ADDED activity ("Comment added") naming the author, on the hash chain', async ({
    app: t,
    owner,
    signer,
  }) => {
    const { workflow, row } = await sentWithSigner(t, owner, signer);
    await post(t, workflow.id, { body: 'Owner note' }, owner.token);
    await post(t, workflow.id, { body: 'Signer note' }, await guestToken(t, row));
    const rows = await commentActivities(t, workflow.id);
    expect(rows.map((a) => [a.action, a.userName, a.recipientId])).toEqual([
      ['Comment added', 'Olivia Owner', null],
      ['Comment added', 'Sam Signer', row.id],
    ]);
    expect(rows[1].sentence).toContain('Sam Signer');
    const chain = await t.platform.db
      .select()
      .from(activities)
      .where(eq(activities.workflowId, workflow.id))
      .orderBy(activities.id);
    expect(verifyChain(chain)).toEqual([]);
  });

  test('still saves the comment when the activity cannot be recorded (best-effort)', async ({
    app: t,
    owner,
    signer,
  }) => {
    const { workflow } = await sentWithSigner(t, owner, signer);
    await t.platform.db.execute(
      sql.raw(`create function refuse_comment_activity() returns trigger language plpgsql as $$
      begin if new.kind = 'COMMENT_ADDED' then raise exception 'activity store unavailable'; end if; return new; end $$`),
    );
    await t.platform.db.execute(
      sql.raw(
        'create trigger refuse_comment_activity before insert on activities for each row execute function refuse_comment_activity()',
      ),
    );
    try {
      const res = await post(t, workflow.id, { body: 'Saved regardless' }, owner.token);
      expect(res.status).toBe(200);
      expect(await commentCount(t, workflow.id)).toBe(1);
      expect(await commentActivities(t, workflow.id)).toEqual([]);
    } finally {
      await t.platform.db.execute(sql.raw('drop trigger refuse_comment_activity on activities'));
      await t.platform.db.execute(sql.raw('drop function refuse_comment_activity()'));
    }
  });
});

describe('GET /workflow/v1/{workflowId}/comments', () => {
  test('answers every comment, oldest first, as an array, to the owner and to recipients', async ({
    app: t,
    owner,
    signer,
  }) => {
    const { workflow, row } = await sentWithSigner(t, owner, signer);
    const bodies = Array.from({ length: 25 }, (_, i) => `note ${i}`);
    for (const [i, body] of bodies.entries()) await post(t, workflow.id, { body }, i % 2 ? owner.token : signer.token);
    for (const token of [owner.token, signer.token, await guestToken(t, row)]) {
      const res = await t.request('GET', `/workflow/v1/${workflow.id}/comments`, { token });
      expect(res.status).toBe(200);
      expect(res.body.map((c: any) => c.body)).toEqual(bodies);
      expect(res.body.every((c: any) => c.documentId === null)).toBe(true);
    }
    const empty = await sentWithSigner(t, owner, signer);
    expect((await t.request('GET', `/workflow/v1/${empty.workflow.id}/comments`, { token: owner.token })).body).toEqual(
      [],
    );
  });
});
