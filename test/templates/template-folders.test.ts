import { describe, expect } from 'vitest';
import { fileUser, test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, guestToken, type TestUser } from '../helpers/factories.ts';
import { addMember, createRole, grant } from '../organizations/org-helpers.ts';
import { createTemplate, sourceWorkflow, templatesMember } from './template-helpers.ts';

const test = base
  .override({ ownerName: 'Olivia Owner' })
  .extend<{ outsider: TestUser }>({ outsider: fileUser({ name: 'Oscar Outsider' }) });

const create = (t: TestApp, owner: TestUser, body: unknown, token = owner.token) =>
  t.request('POST', '/organization/v1/template-folders', { token, body });

describe('template folders', () => {
  test('creates, lists children and the tree, renames; 409 for a name taken under the same parent only', async ({
    app: t,
    owner,
    outsider,
  }) => {
    const root = await create(t, owner, { name: ' Contracts ' });
    expect(root.status).toBe(200);
    expect(root.body).toMatchObject({ name: 'Contracts', parentFolderId: null });
    const child = await create(t, owner, { name: 'Sales', parentFolderId: root.body.id });
    expect(child.body.parentFolderId).toBe(root.body.id);
    const dup = await create(t, owner, { name: 'contracts' });
    expect([dup.status, dup.body.message, dup.body.errorCode]).toEqual([409, 'TEMPLATE_FOLDER_EXISTS', 19003]);
    expect((await create(t, owner, { name: 'Contracts', parentFolderId: root.body.id })).status).toBe(200);
    const missing = await create(t, owner, { name: 'X', parentFolderId: 999999 });
    expect([missing.status, missing.body.message]).toEqual([404, 'TEMPLATE_FOLDER_NOT_FOUND']);
    expect((await create(t, owner, { name: ' ' })).body.message).toBe('INVALID_REQUEST_BODY');
    expect((await create(t, owner, { name: 'N'.repeat(51) })).status).toBe(400);

    const roots = await t.request('GET', '/organization/v1/template-folders', { token: owner.token });
    expect(roots.body.map((f: any) => f.name)).toEqual(['Contracts']);
    const children = await t.request('GET', `/organization/v1/template-folders?parentFolderId=${root.body.id}`, {
      token: owner.token,
    });
    expect(children.body.map((f: any) => f.name)).toEqual(['Contracts', 'Sales']);
    const tree = await t.request('GET', '/organization/v1/template-folders/tree', { token: owner.token });
    expect(tree.status).toBe(200);
    expect(tree.body[0]).toMatchObject({
      name: 'Contracts',
      children: [
        { name: 'Contracts', children: [] },
        { name: 'Sales', children: [] },
      ],
    });

    const renamed = await t.request('PUT', '/organization/v1/rename/template-folders', {
      token: owner.token,
      body: { id: child.body.id, name: 'Sales EU' },
    });
    expect(renamed.body.name).toBe('Sales EU');
    expect(
      (
        await t.request('PUT', '/organization/v1/rename/template-folders', {
          token: owner.token,
          body: { id: child.body.id, name: 'CONTRACTS' },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await t.request('GET', `/organization/v1/template-folders?parentFolderId=${root.body.id}`, {
          token: outsider.token,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request('PUT', '/organization/v1/rename/template-folders', {
          token: outsider.token,
          body: { id: child.body.id, name: 'Mine' },
        })
      ).status,
    ).toBe(404);
  });

  test('deletes with ids: empty list 400, a non-empty folder 400, a parent with its child in one call', async ({
    app: t,
    owner,
  }) => {
    const parent = await create(t, owner, { name: 'To delete' });
    const child = await create(t, owner, { name: 'Inner', parentFolderId: parent.body.id });
    expect((await t.request('DELETE', '/organization/v1/template-folders', { token: owner.token })).status).toBe(400);
    const nonEmpty = await t.request('DELETE', `/organization/v1/template-folders?ids=${parent.body.id}`, {
      token: owner.token,
    });
    expect([nonEmpty.status, nonEmpty.body.message]).toEqual([400, 'TEMPLATE_FOLDER_NOT_EMPTY']);
    const source = await sourceWorkflow(t, owner);
    const template = await createTemplate(t, owner.token, {
      name: 'Filed',
      workflowId: source.workflow.id,
      folderId: child.body.id,
    });
    expect(
      (
        await t.request('DELETE', `/organization/v1/template-folders?ids=${parent.body.id}&ids=${child.body.id}`, {
          token: owner.token,
        })
      ).body.message,
    ).toBe('TEMPLATE_FOLDER_NOT_EMPTY');
    expect(
      (await t.request('DELETE', `/organization/v1/templates?ids=${template.id}`, { token: owner.token })).status,
    ).toBe(204);
    expect(
      (
        await t.request('DELETE', `/organization/v1/template-folders?ids=${parent.body.id}&ids=${child.body.id}`, {
          token: owner.token,
        })
      ).status,
    ).toBe(204);
    expect(
      (await t.request('DELETE', `/organization/v1/template-folders?ids=${parent.body.id}`, { token: owner.token }))
        .status,
    ).toBe(404);
  });

  test('access: owner only; unknown role 400; a restricted folder hides its contents and subtree from other roles', async ({
    app: t,
    owner,
    outsider,
  }) => {
    const admitted = await createRole(t, owner, { permissions: [grant('TEMPLATES', { canView: true, canAdd: true })] });
    const excluded = await createRole(t, owner, { permissions: [grant('TEMPLATES', { canView: true, canAdd: true })] });
    const insider = await addMember(t, owner, admitted.id, 'Ines Insider');
    const other = await addMember(t, owner, excluded.id, 'Eve Excluded');
    const folder = await create(t, owner, { name: 'Restricted' });
    const sub = await create(t, owner, { name: 'Below', parentFolderId: folder.body.id });
    const source = await sourceWorkflow(t, owner);
    const template = await createTemplate(t, owner.token, {
      name: 'Secret',
      workflowId: source.workflow.id,
      folderId: sub.body.id,
    });
    const url = `/organization/v1/template-folders/${folder.body.id}/access`;

    expect((await t.request('GET', url, { token: owner.token })).body).toEqual({ roleIds: [], overrideEnabled: false });
    expect(
      (await t.request('PUT', url, { token: insider.token, body: { roleIds: [admitted.id], overrideEnabled: true } }))
        .status,
    ).toBe(403);
    expect((await t.request('GET', url, { token: insider.token })).status).toBe(403);
    expect(
      (await t.request('PUT', url, { token: outsider.token, body: { roleIds: [], overrideEnabled: true } })).status,
    ).toBe(404);
    const theirRole = await createRole(t, outsider);
    const bad = await t.request('PUT', url, {
      token: owner.token,
      body: { roleIds: [admitted.id, theirRole.id], overrideEnabled: true },
    });
    expect([bad.status, bad.body.message, bad.body.responseBody.unknownRoleIds]).toEqual([
      400,
      'TEMPLATE_FOLDER_ACCESS_INVALID',
      [theirRole.id],
    ]);
    const set = await t.request('PUT', url, {
      token: owner.token,
      body: { roleIds: [admitted.id, admitted.id], overrideEnabled: true },
    });
    expect(set.body).toEqual({ roleIds: [admitted.id], overrideEnabled: true });

    // The excluded role: folder, subfolder and template are gone (404), lists leave them out.
    expect((await t.request('GET', `/organization/v1/templates/${template.id}`, { token: other.token })).status).toBe(
      404,
    );
    expect(
      (await t.request('POST', `/workflow/v1/templates/${template.id}/apply`, { token: other.token, body: [] })).status,
    ).toBe(404);
    expect(
      (await t.request('GET', `/organization/v1/templates/${template.id}/analytics`, { token: other.token })).status,
    ).toBe(404);
    expect((await t.request('GET', '/organization/v1/templates/all', { token: other.token })).body).not.toContainEqual(
      expect.objectContaining({ id: template.id }),
    );
    expect(
      (await t.request('GET', '/organization/v1/template-folders/tree', { token: other.token })).body.map(
        (f: any) => f.name,
      ),
    ).not.toContain('Restricted');
    expect(
      (
        await t.request('GET', `/organization/v1/template-folders?parentFolderId=${sub.body.id}`, {
          token: other.token,
        })
      ).status,
    ).toBe(404);
    expect((await create(t, owner, { name: 'Sneak', parentFolderId: sub.body.id }, other.token)).status).toBe(404);
    // The admitted role and the owner see everything.
    expect((await t.request('GET', `/organization/v1/templates/${template.id}`, { token: insider.token })).status).toBe(
      200,
    );
    const tree = await t.request('GET', '/organization/v1/template-folders/tree', { token: insider.token });
    expect(tree.body.find((f: any) => f.name === 'Restricted').children.map((c: any) => c.name)).toEqual(['Below']);
    // Switching the override off opens it again.
    await t.request('PUT', url, { token: owner.token, body: { roleIds: [admitted.id], overrideEnabled: false } });
    expect((await t.request('GET', `/organization/v1/templates/${template.id}`, { token: other.token })).status).toBe(
      200,
    );
  });

  test('the paged list and `all` leave hidden folders out under every filter: folder, root (0), search, a page past the end', async ({
    app: t,
  }) => {
    // An organization of its own: the file's owner holds the other tests' templates.
    const owner = await createUser(t, { name: 'Lena Lister' });
    const admitted = await createRole(t, owner, { permissions: [grant('TEMPLATES', { canView: true })] });
    const excluded = await createRole(t, owner, { permissions: [grant('TEMPLATES', { canView: true })] });
    const other = await addMember(t, owner, excluded.id, 'Eve Excluded');
    const open = await create(t, owner, { name: 'Open' });
    const closed = await create(t, owner, { name: 'Closed' });
    await t.request('PUT', `/organization/v1/template-folders/${closed.body.id}/access`, {
      token: owner.token,
      body: { roleIds: [admitted.id], overrideEnabled: true },
    });
    const source = await sourceWorkflow(t, owner);
    const atRoot = await createTemplate(t, owner.token, { name: 'Lease at root', workflowId: source.workflow.id });
    const inOpen = await createTemplate(t, owner.token, {
      name: 'Lease in open',
      workflowId: source.workflow.id,
      folderId: open.body.id,
    });
    const inClosed = await createTemplate(t, owner.token, {
      name: 'Lease in closed',
      workflowId: source.workflow.id,
      folderId: closed.body.id,
    });
    const list = async (token: string, query: string) => {
      const res = await t.request('GET', `/organization/v1/templates?${query}`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { ids: res.body.content.map((template: any) => template.id), total: res.body.totalElements };
    };
    expect(await list(other.token, 'page=0&size=10')).toEqual({ ids: [inOpen.id, atRoot.id], total: 2 });
    expect(await list(owner.token, 'page=0&size=10')).toEqual({ ids: [inClosed.id, inOpen.id, atRoot.id], total: 3 });
    expect(await list(other.token, 'page=0&size=10&folderId=0')).toEqual({ ids: [atRoot.id], total: 1 });
    expect(await list(other.token, `page=0&size=10&folderId=${open.body.id}`)).toEqual({ ids: [inOpen.id], total: 1 });
    expect(await list(other.token, `page=0&size=10&folderId=${closed.body.id}`)).toEqual({ ids: [], total: 0 });
    expect(await list(other.token, 'page=0&size=10&searchValue=IN%20')).toEqual({ ids: [inOpen.id], total: 1 });
    expect(await list(owner.token, 'page=0&size=10&searchValue=lease%20in')).toEqual({
      ids: [inClosed.id, inOpen.id],
      total: 2,
    });
    // A page past the end still says how many there are.
    expect(await list(other.token, 'page=5&size=1')).toEqual({ ids: [], total: 2 });
    expect(await list(other.token, 'page=1&size=1')).toEqual({ ids: [atRoot.id], total: 2 });
    const all = await t.request('GET', '/organization/v1/templates/all', { token: other.token });
    expect(all.body).toEqual([
      { id: atRoot.id, name: 'Lease at root' },
      { id: inOpen.id, name: 'Lease in open' },
    ]);
    const allInOpen = await t.request('GET', `/organization/v1/templates/all?folderId=${open.body.id}`, {
      token: other.token,
    });
    expect(allInOpen.body).toEqual([{ id: inOpen.id, name: 'Lease in open' }]);
  });

  test('no token 401, a guest 403, a member without TEMPLATES 403', async ({ app: t, owner }) => {
    const source = await sourceWorkflow(t, owner);
    const guest = await guestToken(t, source.parties[0].row);
    const { member } = await templatesMember(t, owner, null, 'Nina Noright');
    const folder = await create(t, owner, { name: 'Guarded' });
    const routes: [string, string, unknown?][] = [
      ['GET', '/organization/v1/template-folders'],
      ['GET', '/organization/v1/template-folders/tree'],
      ['POST', '/organization/v1/template-folders', { name: 'A' }],
      ['PUT', '/organization/v1/rename/template-folders', { id: folder.body.id, name: 'B' }],
      ['DELETE', `/organization/v1/template-folders?ids=${folder.body.id}`],
      ['GET', `/organization/v1/template-folders/${folder.body.id}/access`],
      ['PUT', `/organization/v1/template-folders/${folder.body.id}/access`, { roleIds: [], overrideEnabled: false }],
    ];
    for (const [method, url, body] of routes) {
      expect((await t.request(method, url, { body })).status, url).toBe(401);
      expect((await t.request(method, url, { token: guest, body })).status, url).toBe(403);
      expect((await t.request(method, url, { token: member.token, body })).status, url).toBe(403);
    }
  });
});
