import { describe, expect, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { test } from '../helpers/fixtures.ts';
import { listenTo } from '../helpers/notifications.ts';
import { createDraftWorkflow, createUser, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { addDocument, updateRecipient, updateWorkflow } from '../helpers/document-list.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { startSecondInstance } from '../web-session/helpers.ts';
import { documents, folders, recipients, users } from '../../src/platform/db/schema/index.ts';

/*
 * The document list and its status counts are kept per process per user until migration 0026's triggers announce a
 * change to what that user's list shows (docs/lists-and-search.md "Caches kept per process"). Every read
 * below follows a warm read of the same page, so a change the triggers missed would show as a stale answer.
 */

function reader(t: TestApp, user: TestUser) {
  const list = async (query = '') => {
    const res = await t.request('GET', `/document/v1${query}`, { token: user.token });
    expect(res.status, `${query}: ${res.raw}`).toBe(200);
    return res.body as { content: any[]; totalElements: number };
  };
  return {
    list,
    item: async (workflowId: number, query = '') =>
      (await list(query)).content.find((i) => i.workflowId === workflowId),
    counts: async () => (await t.request('GET', '/document/v1/count/documents-status', { token: user.token })).body,
  };
}

/** The notifications of document_lists_changed, and the user ids one write announced (sorted, without repeats). */
async function listening(t: TestApp) {
  const heard = await listenTo(t, 'document_lists_changed');
  return {
    after: heard.after,
    async users(work: () => Promise<unknown>): Promise<number[]> {
      const payloads = await heard.after(work);
      return [...new Set(payloads.flatMap((p) => p.split(',').map(Number)))].sort((a, b) => a - b);
    },
    close: heard.close,
  };
}

describe('document list notifications (migration 0026)', () => {
  test("a change to a workflow, its recipients or its documents announces its owner and every recipient's user; other columns nothing", async ({
    app: t,
  }) => {
    const heard = await listening(t);
    try {
      const owner = await createUser(t);
      const signer = await createUser(t);
      const bystander = await createUser(t);
      const { workflow, document } = await createDraftWorkflow(t, owner, { name: 'Announced' });
      const row = await insertRecipient(t, workflow.id, { userId: signer.userId, name: 'Sam', email: signer.email });
      await heard.after(async () => {});
      const both = [owner.userId, signer.userId].sort((a, b) => a - b);
      const { db } = t.platform;

      expect(await heard.users(() => updateWorkflow(t, workflow.id, { name: 'Renamed' }))).toEqual(both);
      expect(await heard.users(() => updateWorkflow(t, workflow.id, { status: 'SENT', sentAt: new Date() }))).toEqual(
        both,
      );
      expect(await heard.users(() => updateRecipient(t, row.id, { status: 'VIEWED' }))).toEqual(both);
      expect(await heard.users(() => updateRecipient(t, row.id, { useDigitalCert: true }))).toEqual(both);
      expect(await heard.users(() => addDocument(t, workflow.id, { name: 'Annex' }))).toEqual(both);
      expect(await heard.users(() => db.delete(documents).where(eq(documents.name, 'Annex')))).toEqual(both);
      expect(
        await heard.users(() =>
          insertRecipient(t, workflow.id, { userId: bystander.userId, name: 'Bea', email: bystander.email }),
        ),
      ).toEqual([owner.userId, signer.userId, bystander.userId].sort((a, b) => a - b));
      // A recipient row removed: its user is announced although the row is gone.
      expect(await heard.users(() => db.delete(recipients).where(eq(recipients.userId, bystander.userId)))).toContain(
        bystander.userId,
      );
      // The owner's name shows in the recipient's list; the account's verification decides what the account's list holds.
      expect(
        await heard.users(() => db.update(users).set({ name: 'Olga Renamed' }).where(eq(users.id, owner.userId))),
      ).toEqual(both);
      expect(
        await heard.users(() => db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, signer.userId))),
      ).toEqual([signer.userId]);
      expect(await heard.users(() => db.insert(folders).values({ userId: owner.userId, name: 'Filed' }))).toEqual([
        owner.userId,
      ]);

      // Columns no list reads, and values written unchanged, announce nothing.
      expect(await heard.after(() => updateRecipient(t, row.id, { name: 'Samuel', viewedAt: new Date() }))).toEqual([]);
      expect(await heard.after(() => updateWorkflow(t, workflow.id, { name: 'Renamed' }))).toEqual([]);
      expect(
        await heard.after(() => db.update(documents).set({ name: 'Other name' }).where(eq(documents.id, document.id))),
      ).toEqual([]);
      expect(
        await heard.after(() => db.update(users).set({ passwordHash: 'x' }).where(eq(users.id, owner.userId))),
      ).toEqual([]);
    } finally {
      await heard.close();
    }
  });

  test('many users in one statement: comma-separated, at most 500 per notification', async ({ app: t }) => {
    const heard = await listening(t);
    try {
      const payloads = await heard.after(() =>
        t.platform.db.execute(sql`select announce_document_lists(array(select generate_series(1, 1201)))`),
      );
      expect(payloads.map((p) => p.split(',').length).sort((a, b) => a - b)).toEqual([201, 500, 500]);
      expect(payloads.flatMap((p) => p.split(',').map(Number)).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 1201 }, (_, i) => i + 1),
      );
      expect(payloads.every((p) => Buffer.byteLength(p) < 8000)).toBe(true);
    } finally {
      await heard.close();
    }
  });
});

describe('document list and counts over HTTP: every change shows on the very next read', () => {
  test("owner and recipient: rename, documents, recipients, sending, acting, the owner's name, filters, search, folders, deletion", async ({
    app: t,
  }) => {
    const owner = await createUser(t, { name: 'Olga Owner' });
    const signer = await createUser(t, { name: 'Sam Signer' });
    const mine = reader(t, owner);
    const theirs = reader(t, signer);
    const { workflow } = await createDraftWorkflow(t, owner, { name: 'Lease' });
    expect(await mine.item(workflow.id)).toMatchObject({
      name: 'Lease',
      documentCount: 1,
      recipientCount: 0,
      status: 'DRAFT',
    });
    expect((await mine.counts()).draftDocCount).toBe(1);
    expect((await theirs.list()).totalElements).toBe(0);
    expect((await mine.list('?searchValue=lease')).totalElements).toBe(1);

    expect(
      (
        await t.request(
          'PUT',
          `/document/v1/${(await t.platform.db.select().from(documents).where(eq(documents.workflowId, workflow.id)))[0].id}`,
          { token: owner.token, body: { name: 'Lease contract' } },
        )
      ).status,
    ).toBe(200);
    await updateWorkflow(t, workflow.id, { name: 'Office lease' });
    expect((await mine.item(workflow.id)).name).toBe('Office lease');
    expect((await mine.list('?searchValue=office')).totalElements).toBe(1);
    expect((await mine.list('?searchValue=lease')).content[0].name).toBe('Office lease');

    await addDocument(t, workflow.id, { name: 'Annex' });
    expect((await mine.item(workflow.id)).documentCount).toBe(2);
    const row = await insertRecipient(t, workflow.id, {
      userId: signer.userId,
      name: 'Sam Signer',
      email: signer.email,
    });
    expect((await mine.item(workflow.id)).recipientCount).toBe(1);
    expect((await theirs.list()).totalElements).toBe(0);

    expect((await theirs.counts()).pendingDocCount).toBe(0);
    await updateWorkflow(t, workflow.id, { status: 'SENT', sentAt: new Date() });
    expect(await mine.item(workflow.id)).toMatchObject({ status: 'SENT', dateSent: expect.stringMatching(/Z$/) });
    expect((await theirs.counts()).pendingDocCount).toBe(0);
    await updateRecipient(t, row.id, { status: 'SENT' });
    expect((await mine.counts()).sentDocCount).toBe(1);
    expect(await theirs.item(workflow.id)).toMatchObject({
      recipientId: row.id,
      recipientRole: 'SIGNER',
      ownerName: 'Olga Owner',
    });
    expect((await theirs.counts()).pendingDocCount).toBe(1);
    expect((await theirs.list('?status=Viewed')).totalElements).toBe(0);

    await updateRecipient(t, row.id, { status: 'VIEWED', enforceIdentity: true });
    expect((await theirs.list('?status=Viewed')).totalElements).toBe(1);
    expect((await theirs.item(workflow.id)).enforceIdentity).toBe(true);
    await updateRecipient(t, row.id, { status: 'SIGNED', useDigitalCert: true });
    expect((await theirs.list('?status=Viewed')).totalElements).toBe(0);
    expect(await theirs.counts()).toMatchObject({ pendingDocCount: 0, signedDocCount: 1 });
    expect((await mine.item(workflow.id)).anyDigitalSignature).toBe(true);

    await t.platform.db.update(users).set({ name: 'Olga Renamed' }).where(eq(users.id, owner.userId));
    expect((await theirs.item(workflow.id)).ownerName).toBe('Olga Renamed');
    await t.platform.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, signer.userId));
    expect((await theirs.list()).totalElements).toBe(0);
    await t.platform.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, signer.userId));
    expect((await theirs.list()).totalElements).toBe(1);

    // A folder filter: 404 until the folder exists, then what is filed in it.
    const filed = await t.request('POST', '/workflow/v1/user/folders', {
      token: owner.token,
      body: { folderName: 'Leases' },
    });
    expect(filed.status, filed.raw).toBeLessThan(300);
    const folderId = filed.body.id;
    expect((await mine.list(`?folderId=${folderId}`)).totalElements).toBe(0);
    await updateWorkflow(t, workflow.id, { folderId });
    expect((await mine.list(`?folderId=${folderId}`)).totalElements).toBe(1);
    expect((await mine.item(workflow.id)).folderId).toBe(folderId);
    await t.platform.db.delete(folders).where(eq(folders.id, folderId));
    expect((await t.request('GET', `/document/v1?folderId=${folderId}`, { token: owner.token })).status).toBe(404);

    await updateWorkflow(t, workflow.id, { status: 'COMPLETED', folderId: null });
    expect((await theirs.item(workflow.id)).status).toBe('COMPLETED');
    const deleted = await t.request('DELETE', `/document/v1/${workflow.id}`, { token: owner.token });
    expect(deleted.status, deleted.raw).toBe(200);
    expect((await mine.list()).totalElements).toBe(0);
    expect((await theirs.list()).totalElements).toBe(0);
    expect((await mine.list('?searchValue=office')).totalElements).toBe(0);
    expect((await mine.counts()).completedDocCount).toBe(0);
  });

  test("one user's kept pages never answer another", async ({ app: t }) => {
    const first = await createUser(t);
    const second = await createUser(t);
    const { workflow } = await createDraftWorkflow(t, first, { name: 'Only First' });
    expect((await reader(t, first).list()).content.map((i) => i.workflowId)).toEqual([workflow.id]);
    expect((await reader(t, second).list()).totalElements).toBe(0);
    expect((await reader(t, second).counts()).draftDocCount).toBe(0);
  });

  test("two instances: a change through one shows on the other's next reads", async ({ app: t }) => {
    const other = await startSecondInstance(t);
    try {
      const owner = await createUser(t);
      const { workflow } = await createDraftWorkflow(t, owner, { name: 'Before' });
      const names = async () => {
        const res = await other.second.app.inject({
          method: 'GET',
          url: '/document/v1',
          headers: { authorization: `Bearer ${owner.token}` },
        });
        return res.json().content.map((i: any) => i.name);
      };
      expect(await names()).toEqual(['Before']);
      expect(await names()).toEqual(['Before']);
      await updateWorkflow(t, workflow.id, { name: 'After' });
      await vi.waitFor(async () => expect(await names()).toEqual(['After']), { timeout: 2000, interval: 5 });
    } finally {
      await other.close();
    }
  });
});
