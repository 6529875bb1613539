import { describe, expect } from 'vitest';
import { fileUser, test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, guestToken, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { readWorkflow, updateWorkflow } from '../helpers/document-list.ts';
import { eq } from 'drizzle-orm';
import { recipients } from '../../src/platform/db/schema/index.ts';

const test = base.extend<{ signer: TestUser; stranger: TestUser }>({
  signer: fileUser({ name: 'Sam Signer' }),
  stranger: fileUser({ name: 'Stan Stranger' }),
});

/** A workflow of `owner` with `signer` as recipient, moved to SENT so the signer can see it. */
async function sentWithSigner(t: TestApp, owner: TestUser, signer: TestUser) {
  const { workflow } = await createDraftWorkflow(t, owner);
  const row = await insertRecipient(t, workflow.id, { userId: signer.userId, name: 'Sam Signer', email: signer.email });
  await updateWorkflow(t, workflow.id, { status: 'SENT', sentAt: new Date() });
  return { workflow, row };
}

async function recipientsOf(t: TestApp, workflowId: number) {
  return t.platform.db.select().from(recipients).where(eq(recipients.workflowId, workflowId)).orderBy(recipients.id);
}

describe('PUT /workflow/v1/rename/{workflowId}', () => {
  test('accepts 1 and 50 characters, stores the name trimmed, and answers the settings', async ({ app: t, owner }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const one = await t.request('PUT', `/workflow/v1/rename/${workflow.id}`, {
      token: owner.token,
      body: { name: 'A' },
    });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ workflowId: workflow.id, name: 'A', status: 'DRAFT', sequence: 'UNORDERED' });
    const fifty = 'N'.repeat(50);
    expect(
      (await t.request('PUT', `/workflow/v1/rename/${workflow.id}`, { token: owner.token, body: { name: fifty } })).body
        .name,
    ).toBe(fifty);
    expect(
      (
        await t.request('PUT', `/workflow/v1/rename/${workflow.id}`, {
          token: owner.token,
          body: { name: '  Lease 2025  ' },
        })
      ).body.name,
    ).toBe('Lease 2025');
    expect((await readWorkflow(t, workflow.id)).name).toBe('Lease 2025');
  });

  test('refuses 51 characters, an empty name and a whitespace-only name, changing nothing', async ({
    app: t,
    owner,
  }) => {
    const { workflow } = await createDraftWorkflow(t, owner, { name: 'Original' });
    const long = await t.request('PUT', `/workflow/v1/rename/${workflow.id}`, {
      token: owner.token,
      body: { name: 'N'.repeat(51) },
    });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('BAD_REQUEST_BODY');
    expect(
      (await t.request('PUT', `/workflow/v1/rename/${workflow.id}`, { token: owner.token, body: { name: '' } })).status,
    ).toBe(400);
    const blank = await t.request('PUT', `/workflow/v1/rename/${workflow.id}`, {
      token: owner.token,
      body: { name: '   ' },
    });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('INVALID_REQUEST_BODY');
    expect(
      (await t.request('PUT', `/workflow/v1/rename/${workflow.id}`, { token: owner.token, body: { name: 42 } })).status,
    ).toBe(400);
    expect((await readWorkflow(t, workflow.id)).name).toBe('Original');
  });

  test('is owner only: a recipient gets INVALID_WORKFLOW_OWNER, a stranger 404, a signing-link token 403', async ({
    app: t,
    owner,
    signer,
    stranger,
  }) => {
    const { workflow, row } = await sentWithSigner(t, owner, signer);
    const byRecipient = await t.request('PUT', `/workflow/v1/rename/${workflow.id}`, {
      token: signer.token,
      body: { name: 'Mine now' },
    });
    expect(byRecipient.status).toBe(400);
    expect(byRecipient.body.message).toBe('INVALID_WORKFLOW_OWNER');
    expect(
      (
        await t.request('PUT', `/workflow/v1/rename/${workflow.id}`, {
          token: stranger.token,
          body: { name: 'Mine now' },
        })
      ).status,
    ).toBe(404);
    const guest = await guestToken(t, row);
    expect(
      (await t.request('PUT', `/workflow/v1/rename/${workflow.id}`, { token: guest, body: { name: 'Mine now' } }))
        .status,
    ).toBe(403);
    expect(
      (await t.request('PUT', '/workflow/v1/rename/999999', { token: owner.token, body: { name: 'X' } })).status,
    ).toBe(404);
    expect((await readWorkflow(t, workflow.id)).name).toBe('Test agreement');
  });

  test('renames a SENT workflow but not a VOID one (read-only)', async ({ app: t, owner, signer }) => {
    const { workflow } = await sentWithSigner(t, owner, signer);
    expect(
      (
        await t.request('PUT', `/workflow/v1/rename/${workflow.id}`, {
          token: owner.token,
          body: { name: 'Renamed while out' },
        })
      ).status,
    ).toBe(200);
    await updateWorkflow(t, workflow.id, { status: 'VOID' });
    const res = await t.request('PUT', `/workflow/v1/rename/${workflow.id}`, {
      token: owner.token,
      body: { name: 'After void' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('INVALID_WORKFLOW_STATUS');
    expect((await readWorkflow(t, workflow.id)).name).toBe('Renamed while out');
  });
});

describe('GET /workflow/v1/sequence/{workflowId}', () => {
  test("answers a bare boolean, true only for ORDERED, to the owner, a recipient and the workflow's signing-link token", async ({
    app: t,
    owner,
    signer,
  }) => {
    const ordered = await createDraftWorkflow(t, owner, { sequence: 'ORDERED' });
    const unordered = await createDraftWorkflow(t, owner);
    const res = await t.request('GET', `/workflow/v1/sequence/${ordered.workflow.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.raw).toBe('true');
    expect((await t.request('GET', `/workflow/v1/sequence/${unordered.workflow.id}`, { token: owner.token })).raw).toBe(
      'false',
    );

    const { workflow, row } = await sentWithSigner(t, owner, signer);
    expect((await t.request('GET', `/workflow/v1/sequence/${workflow.id}`, { token: signer.token })).raw).toBe('false');
    expect(
      (await t.request('GET', `/workflow/v1/sequence/${workflow.id}`, { token: await guestToken(t, row) })).status,
    ).toBe(200);
  });

  test("hides the workflow from strangers, from a recipient of a DRAFT and from another workflow's signing-link token", async ({
    app: t,
    owner,
    signer,
    stranger,
  }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    await insertRecipient(t, workflow.id, { userId: signer.userId, name: 'Sam Signer', email: signer.email });
    expect((await t.request('GET', `/workflow/v1/sequence/${workflow.id}`, { token: stranger.token })).status).toBe(
      404,
    );
    expect((await t.request('GET', `/workflow/v1/sequence/${workflow.id}`, { token: signer.token })).status).toBe(404);
    const other = await sentWithSigner(t, owner, signer);
    expect(
      (await t.request('GET', `/workflow/v1/sequence/${workflow.id}`, { token: await guestToken(t, other.row) }))
        .status,
    ).toBe(404);
  });
});

describe('PUT /workflow/v1/{workflowId} and PUT /document/v1/sequence/{workflowId}', () => {
  test('switches to ORDERED, numbering recipients that have no order in their current order', async ({
    app: t,
    owner,
    signer,
    stranger,
  }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const a = await insertRecipient(t, workflow.id, { userId: signer.userId, name: 'Sam Signer', email: signer.email });
    const b = await insertRecipient(t, workflow.id, {
      userId: stranger.userId,
      name: 'Stan Stranger',
      email: stranger.email,
    });
    const res = await t.request('PUT', `/workflow/v1/${workflow.id}`, {
      token: owner.token,
      body: { sequence: 'ORDERED' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sequence: 'ORDERED', signType: 'COUNTERSIGN' });
    expect((await recipientsOf(t, workflow.id)).map((r) => [r.id, r.recipientOrder])).toEqual([
      [a.id, 1],
      [b.id, 2],
    ]);
    expect((await t.request('GET', `/workflow/v1/sequence/${workflow.id}`, { token: owner.token })).raw).toBe('true');
    // Same effect through the documents path.
    const back = await t.request('PUT', `/document/v1/sequence/${workflow.id}`, {
      token: owner.token,
      body: { sequence: 'UNORDERED' },
    });
    expect(back.status).toBe(200);
    expect((await readWorkflow(t, workflow.id)).sequence).toBe('UNORDERED');
  });

  test('keeps valid existing orders when switching to ORDERED', async ({ app: t, owner, signer, stranger }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const a = await insertRecipient(t, workflow.id, {
      userId: signer.userId,
      name: 'Sam Signer',
      email: signer.email,
      recipientOrder: 5,
    });
    const b = await insertRecipient(t, workflow.id, {
      userId: stranger.userId,
      name: 'Stan Stranger',
      email: stranger.email,
      recipientOrder: 2,
    });
    await t.request('PUT', `/workflow/v1/${workflow.id}`, { token: owner.token, body: { sequence: 'ORDERED' } });
    const rows = await recipientsOf(t, workflow.id);
    expect(rows.find((r) => r.id === a.id)!.recipientOrder).toBe(5);
    expect(rows.find((r) => r.id === b.id)!.recipientOrder).toBe(2);
  });

  test("into SELF: creates the owner's own row when there is none and switches reminders off", async ({
    app: t,
    owner,
    signer,
  }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    await updateWorkflow(t, workflow.id, { reminderEnabled: true, reminderIntervalDays: 3 });
    const res = await t.request('PUT', `/document/v1/sequence/${workflow.id}`, {
      token: owner.token,
      body: { sequence: 'SELF' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      sequence: 'SELF',
      signType: 'SELFSIGN',
      reminder: { enabled: false, intervalDays: null, offsetMinutes: null },
    });
    const rows = await recipientsOf(t, workflow.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: owner.userId, email: owner.email, role: 'SIGNER' });
    // Out of SELF the owner's row stays as an ordinary signer.
    await t.request('PUT', `/workflow/v1/${workflow.id}`, { token: owner.token, body: { sequence: 'UNORDERED' } });
    expect(await recipientsOf(t, workflow.id)).toHaveLength(1);
    expect((await readWorkflow(t, workflow.id)).signType).toBe('COUNTERSIGN');
  });

  test('refuses SELF while other recipients exist, and SURVEY with a non-SIGNER, writing nothing', async ({
    app: t,
    owner,
    signer,
  }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    await insertRecipient(t, workflow.id, {
      userId: signer.userId,
      name: 'Sam Signer',
      email: signer.email,
      role: 'APPROVER',
    });
    for (const sequence of ['SELF', 'SURVEY']) {
      const res = await t.request('PUT', `/workflow/v1/${workflow.id}`, { token: owner.token, body: { sequence } });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    }
    expect((await readWorkflow(t, workflow.id)).sequence).toBe('UNORDERED');
    expect(await recipientsOf(t, workflow.id)).toHaveLength(1);
  });

  test('is owner and DRAFT only, and refuses an unknown mode', async ({ app: t, owner, signer, stranger }) => {
    const { workflow } = await sentWithSigner(t, owner, signer);
    const byRecipient = await t.request('PUT', `/workflow/v1/${workflow.id}`, {
      token: signer.token,
      body: { sequence: 'ORDERED' },
    });
    expect(byRecipient.body.message).toBe('INVALID_WORKFLOW_OWNER');
    const sent = await t.request('PUT', `/workflow/v1/${workflow.id}`, {
      token: owner.token,
      body: { sequence: 'ORDERED' },
    });
    expect(sent.status).toBe(400);
    expect(sent.body.message).toBe('INVALID_WORKFLOW_STATUS');
    const draft = await createDraftWorkflow(t, owner);
    expect(
      (
        await t.request('PUT', `/workflow/v1/${draft.workflow.id}`, {
          token: owner.token,
          body: { sequence: 'SIDEWAYS' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.request('PUT', `/workflow/v1/${draft.workflow.id}`, {
          token: stranger.token,
          body: { sequence: 'ORDERED' },
        })
      ).status,
    ).toBe(404);
    expect((await readWorkflow(t, workflow.id)).sequence).toBe('UNORDERED');
  });
});

describe('PUT /workflow/v1/{workflowId}/reminder', () => {
  const put = (t: TestApp, owner: TestUser, workflowId: number, body: unknown, token = owner.token) =>
    t.request('PUT', `/workflow/v1/${workflowId}/reminder`, { token, body });

  test('intervalDays: 1 and 30 are stored, 0 and 31 are BAD_REQUEST_BODY and change nothing', async ({
    app: t,
    owner,
  }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    for (const days of [1, 30]) {
      const res = await put(t, owner, workflow.id, { enabled: true, intervalDays: days });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ enabled: true, intervalDays: days, offsetMinutes: null });
    }
    for (const days of [0, 31, 2.5, -1]) {
      const res = await put(t, owner, workflow.id, { enabled: true, intervalDays: days });
      expect(res.status, `intervalDays ${days}`).toBe(400);
      expect(res.body.message).toBe('BAD_REQUEST_BODY');
    }
    const stored = await readWorkflow(t, workflow.id);
    expect([stored.reminderEnabled, stored.reminderIntervalDays, stored.reminderOffsetMinutes]).toEqual([
      true,
      30,
      null,
    ]);
  });

  test('offsetMinutes: 1 and 1439 are stored, 0 and 1440 are BAD_REQUEST_BODY', async ({ app: t, owner }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    for (const minutes of [1, 1439]) {
      expect((await put(t, owner, workflow.id, { enabled: true, offsetMinutes: minutes })).body).toEqual({
        enabled: true,
        intervalDays: null,
        offsetMinutes: minutes,
      });
    }
    for (const minutes of [0, 1440]) {
      const res = await put(t, owner, workflow.id, { enabled: true, offsetMinutes: minutes });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('BAD_REQUEST_BODY');
    }
    expect((await readWorkflow(t, workflow.id)).reminderOffsetMinutes).toBe(1439);
  });

  test('a valid offsetMinutes wins over intervalDays; an invalid one leaves a valid intervalDays in charge', async ({
    app: t,
    owner,
  }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    expect((await put(t, owner, workflow.id, { enabled: true, intervalDays: 5, offsetMinutes: 90 })).body).toEqual({
      enabled: true,
      intervalDays: null,
      offsetMinutes: 90,
    });
    expect((await put(t, owner, workflow.id, { enabled: true, intervalDays: 5, offsetMinutes: 1440 })).body).toEqual({
      enabled: true,
      intervalDays: 5,
      offsetMinutes: null,
    });
    expect((await put(t, owner, workflow.id, { enabled: true, intervalDays: 31, offsetMinutes: 0 })).status).toBe(400);
    expect((await put(t, owner, workflow.id, { enabled: true })).status).toBe(400);
    expect((await put(t, owner, workflow.id, { enabled: true, intervalDays: null, offsetMinutes: null })).status).toBe(
      400,
    );
  });

  test('enabled false turns reminders off and clears both values, whatever else is sent', async ({ app: t, owner }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    await put(t, owner, workflow.id, { enabled: true, intervalDays: 7 });
    const res = await put(t, owner, workflow.id, { enabled: false, intervalDays: 99, offsetMinutes: 5000 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: false, intervalDays: null, offsetMinutes: null });
    const stored = await readWorkflow(t, workflow.id);
    expect([stored.reminderEnabled, stored.reminderIntervalDays, stored.reminderOffsetMinutes]).toEqual([
      false,
      null,
      null,
    ]);
  });

  test('on a SELF workflow enabled is forced to false without an error', async ({ app: t, owner }) => {
    const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
    const res = await put(t, owner, workflow.id, { enabled: true, intervalDays: 3 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: false, intervalDays: null, offsetMinutes: null });
    expect((await put(t, owner, workflow.id, { enabled: true, intervalDays: 0 })).status).toBe(200);
  });

  test('is owner only (INVALID_WORKFLOW_OWNER) and DRAFT only (INVALID_WORKFLOW_STATUS); malformed bodies are 400', async ({
    app: t,
    owner,
    signer,
    stranger,
  }) => {
    const { workflow } = await sentWithSigner(t, owner, signer);
    const byRecipient = await put(t, owner, workflow.id, { enabled: true, intervalDays: 3 }, signer.token);
    expect(byRecipient.status).toBe(400);
    expect(byRecipient.body.message).toBe('INVALID_WORKFLOW_OWNER');
    const sent = await put(t, owner, workflow.id, { enabled: true, intervalDays: 3 });
    expect(sent.status).toBe(400);
    expect(sent.body.message).toBe('INVALID_WORKFLOW_STATUS');
    expect((await put(t, owner, workflow.id, { enabled: true, intervalDays: 3 }, stranger.token)).status).toBe(404);
    expect((await readWorkflow(t, workflow.id)).reminderEnabled).toBe(false);

    const draft = await createDraftWorkflow(t, owner);
    expect((await put(t, owner, draft.workflow.id, { enabled: 'yes', intervalDays: 3 })).status).toBe(400);
    expect((await put(t, owner, draft.workflow.id, { enabled: true, intervalDays: '3' })).status).toBe(400);
    expect((await put(t, owner, draft.workflow.id, { intervalDays: 3 })).status).toBe(400);
  });
});
