import { describe, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { fileUser, test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { readWorkflow, updateWorkflow } from '../helpers/document-list.ts';
import { folders } from '../../src/platform/db/schema/index.ts';

const test = base
  .override({ ownerName: 'Olivia Owner' })
  .extend<{ other: TestUser }>({ other: fileUser({ name: 'Oscar Other' }) });

const create = (t: TestApp, owner: TestUser, folderName: unknown, token = owner.token) =>
  t.request('POST', '/workflow/v1/user/folders', { token, body: { folderName } });
const foldersOf = async (t: TestApp, user: TestUser) =>
  t.platform.db.select().from(folders).where(eq(folders.userId, user.userId));

describe('creating and renaming folders', () => {
  test('accepts 1 and 50 characters, stores the name trimmed, and answers {id, folderName, documentsCount}', async ({
    app: t,
    owner,
  }) => {
    const one = await create(t, owner, 'A');
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ id: expect.any(Number), folderName: 'A', documentsCount: 0 });
    expect((await create(t, owner, 'F'.repeat(50))).body.folderName).toBe('F'.repeat(50));
    expect((await create(t, owner, '  Contracts  ')).body.folderName).toBe('Contracts');
  });

  test('refuses 51 characters, empty and whitespace-only names, writing nothing', async ({ app: t, owner }) => {
    const before = (await foldersOf(t, owner)).length;
    const long = await create(t, owner, 'F'.repeat(51));
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('BAD_REQUEST_BODY');
    expect((await create(t, owner, '')).status).toBe(400);
    const blank = await create(t, owner, '   ');
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('INVALID_REQUEST_BODY');
    expect((await create(t, owner, 12)).status).toBe(400);
    expect((await foldersOf(t, owner)).length).toBe(before);
  });

  test('refuses a name the user already has, ignoring case (409); another user may use it', async ({
    app: t,
    owner,
    other,
  }) => {
    await create(t, owner, 'Invoices');
    const dup = await create(t, owner, ' invoices ');
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('CONFLICT');
    expect((await create(t, owner, 'Invoices', other.token)).status).toBe(200);
  });

  test('two concurrent creates of one name leave one folder and one 409', async ({ app: t, owner }) => {
    const results = await Promise.all([create(t, owner, 'Race'), create(t, owner, 'RACE')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await foldersOf(t, owner)).filter((f) => f.name.toLowerCase() === 'race')).toHaveLength(1);
  });

  test("renames with the same rules; only the owner's folder", async ({ app: t, owner, other }) => {
    const folder = (await create(t, owner, 'Drafts 2024')).body;
    await create(t, owner, 'Archive');
    const renamed = await t.request('PUT', `/workflow/v1/user/folders/${folder.id}`, {
      token: owner.token,
      body: { folderName: ' Drafts 2025 ' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ id: folder.id, folderName: 'Drafts 2025', documentsCount: 0 });
    // Changing only the case of its own name is fine; taking another folder's name is not.
    expect(
      (
        await t.request('PUT', `/workflow/v1/user/folders/${folder.id}`, {
          token: owner.token,
          body: { folderName: 'DRAFTS 2025' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await t.request('PUT', `/workflow/v1/user/folders/${folder.id}`, {
          token: owner.token,
          body: { folderName: 'archive' },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await t.request('PUT', `/workflow/v1/user/folders/${folder.id}`, {
          token: owner.token,
          body: { folderName: 'F'.repeat(51) },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.request('PUT', `/workflow/v1/user/folders/${folder.id}`, {
          token: owner.token,
          body: { folderName: ' ' },
        })
      ).body.message,
    ).toBe('INVALID_REQUEST_BODY');
    expect(
      (
        await t.request('PUT', `/workflow/v1/user/folders/${folder.id}`, {
          token: other.token,
          body: { folderName: 'Mine' },
        })
      ).status,
    ).toBe(404);
    expect((await foldersOf(t, owner)).find((f) => f.id === folder.id)!.name).toBe('DRAFTS 2025');
  });
});

describe('listing folders', () => {
  test("lists only the caller's folders by name, and pages them with a literal search", async ({
    app: t,
    owner,
    other,
  }) => {
    const user = await createUser(t, { name: 'Lara Lister' });
    for (const name of ['beta', 'Alpha', 'gamma 100%', 'Gamma_x', 'delta']) await create(t, owner, name, user.token);
    await create(t, owner, 'Alien', other.token);
    const all = await t.request('GET', '/workflow/v1/user/folders', { token: user.token });
    expect(all.status).toBe(200);
    expect(all.body.map((f: any) => f.folderName)).toEqual(['Alpha', 'beta', 'delta', 'gamma 100%', 'Gamma_x']);

    const page = await t.request('GET', '/workflow/v1/user/folders/paged?page=1&size=2', { token: user.token });
    expect(page.body).toMatchObject({ totalElements: 5, totalPages: 3, number: 1, size: 2 });
    expect(page.body.content.map((f: any) => f.folderName)).toEqual(['delta', 'gamma 100%']);

    const search = async (value: string) =>
      (
        await t.request('GET', `/workflow/v1/user/folders/paged?searchValue=${encodeURIComponent(value)}`, {
          token: user.token,
        })
      ).body;
    expect((await search('GAMMA')).content.map((f: any) => f.folderName)).toEqual(['gamma 100%', 'Gamma_x']);
    expect((await search('%')).content.map((f: any) => f.folderName)).toEqual(['gamma 100%']);
    expect((await search('_')).content.map((f: any) => f.folderName)).toEqual(['Gamma_x']);
    expect(await search('zzz')).toEqual({ content: [], totalElements: 0, totalPages: 0, number: 0, size: 20 });
    expect((await t.request('GET', '/workflow/v1/user/folders/paged?size=0', { token: user.token })).status).toBe(400);
    expect((await t.request('GET', '/workflow/v1/user/folders/paged?page=1e300', { token: user.token })).status).toBe(
      400,
    );
  });
});

describe('filing workflows', () => {
  test('files one workflow, a comma-separated list in the path, or a list in the body; counts follow', async ({
    app: t,
    owner,
  }) => {
    const folder = (await create(t, owner, 'Leases')).body;
    const [a, b, c] = await Promise.all([
      createDraftWorkflow(t, owner),
      createDraftWorkflow(t, owner),
      createDraftWorkflow(t, owner),
    ]);
    const one = await t.request('PUT', `/workflow/v1/user/folders/${folder.id}/${a.workflow.id}`, {
      token: owner.token,
    });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ id: folder.id, folderName: 'Leases', documentsCount: 1 });
    const two = await t.request('PUT', `/workflow/v1/user/folders/${folder.id}/${b.workflow.id},${c.workflow.id}`, {
      token: owner.token,
    });
    expect(two.body.documentsCount).toBe(3);

    const second = (await create(t, owner, 'Elsewhere')).body;
    const moved = await t.request('PUT', `/workflow/v1/user/folders/${second.id}/workflows`, {
      token: owner.token,
      body: { workflowIds: `${a.workflow.id}, ${b.workflow.id}` },
    });
    expect(moved.body.documentsCount).toBe(2);
    const list = await t.request('GET', '/workflow/v1/user/folders', { token: owner.token });
    expect(list.body.find((f: any) => f.id === folder.id).documentsCount).toBe(1);
    // A deleted workflow no longer counts.
    await updateWorkflow(t, c.workflow.id, { deletedAt: new Date() });
    expect(
      (await t.request('GET', '/workflow/v1/user/folders', { token: owner.token })).body.find(
        (f: any) => f.id === folder.id,
      ).documentsCount,
    ).toBe(0);
  });

  test("is all or nothing: a workflow that is not the caller's own is refused and nothing moves", async ({
    app: t,
    owner,
    other,
  }) => {
    const folder = (await create(t, owner, 'Strict')).body;
    const mine = await createDraftWorkflow(t, owner);
    const theirs = await createDraftWorkflow(t, other);
    // Even a workflow the caller can see as a recipient cannot be filed: 400 INVALID_WORKFLOW_OWNER (RUNTIME.md), not 404.
    const shared = await createDraftWorkflow(t, other);
    await insertRecipient(t, shared.workflow.id, { userId: owner.userId, name: 'Olivia Owner', email: owner.email });
    await updateWorkflow(t, shared.workflow.id, { status: 'SENT' });
    for (const ids of [`${mine.workflow.id},${theirs.workflow.id}`, `${mine.workflow.id},999999`]) {
      const res = await t.request('PUT', `/workflow/v1/user/folders/${folder.id}/${ids}`, { token: owner.token });
      expect(res.status, ids).toBe(404);
    }
    const seen = await t.request(
      'PUT',
      `/workflow/v1/user/folders/${folder.id}/${mine.workflow.id},${shared.workflow.id}`,
      { token: owner.token },
    );
    expect([seen.status, seen.body.message]).toEqual([400, 'INVALID_WORKFLOW_OWNER']);
    expect((await readWorkflow(t, mine.workflow.id)).folderId).toBeNull();
    // Another user's folder is 404 too.
    const alien = (await create(t, owner, 'Alien folder', other.token)).body;
    expect(
      (await t.request('PUT', `/workflow/v1/user/folders/${alien.id}/${mine.workflow.id}`, { token: owner.token }))
        .status,
    ).toBe(404);
    expect((await readWorkflow(t, mine.workflow.id)).folderId).toBeNull();
  });

  test('refuses malformed id lists with 400', async ({ app: t, owner }) => {
    const folder = (await create(t, owner, 'Malformed')).body;
    const wf = await createDraftWorkflow(t, owner);
    for (const ids of ['abc', `${wf.workflow.id},,1`, '0', '1;2', '99999999999']) {
      const res = await t.request('PUT', `/workflow/v1/user/folders/${folder.id}/${encodeURIComponent(ids)}`, {
        token: owner.token,
      });
      expect(res.status, ids).toBe(400);
    }
    for (const workflowIds of ['', '1,', ' , ', 'one', 12]) {
      const res = await t.request('PUT', `/workflow/v1/user/folders/${folder.id}/workflows`, {
        token: owner.token,
        body: { workflowIds },
      });
      expect(res.status, String(workflowIds)).toBe(400);
    }
    expect((await readWorkflow(t, wf.workflow.id)).folderId).toBeNull();
  });
});

describe('DELETE /workflow/v1/user/folders/{folderId}', () => {
  test('deletes the folder and leaves its workflows unfiled, still listed', async ({ app: t, owner, other }) => {
    const folder = (await create(t, owner, 'Temporary')).body;
    const wf = await createDraftWorkflow(t, owner, { name: 'Kept after folder delete' });
    await t.request('PUT', `/workflow/v1/user/folders/${folder.id}/${wf.workflow.id}`, { token: owner.token });
    expect((await t.request('DELETE', `/workflow/v1/user/folders/${folder.id}`, { token: other.token })).status).toBe(
      404,
    );
    const res = await t.request('DELETE', `/workflow/v1/user/folders/${folder.id}`, { token: owner.token });
    expect(res.status).toBe(204);
    expect((await foldersOf(t, owner)).some((f) => f.id === folder.id)).toBe(false);
    const stored = await readWorkflow(t, wf.workflow.id);
    expect(stored.folderId).toBeNull();
    expect(stored.deletedAt).toBeNull();
    const list = await t.request('GET', '/document/v1?searchValue=Kept%20after', { token: owner.token });
    expect(list.body.content.map((i: any) => i.workflowId)).toEqual([wf.workflow.id]);
    expect((await t.request('DELETE', `/workflow/v1/user/folders/${folder.id}`, { token: owner.token })).status).toBe(
      404,
    );
  });
});
