import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, guestToken, createDraftWorkflow, insertRecipient } from '../helpers/factories.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { insertBusinessApp, signIn } from '../helpers/auth.ts';
import { addMember, ALL_ALLOWED, createRole, grant, roleBody } from '../organizations/org-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('role CRUD', () => {
  it('creates a role with every right defaulting to true, reads, updates and lists it', async () => {
    const owner = await createUser(t);
    const res = await t.request('POST', '/user/v1/roles', {
      token: owner.token,
      body: roleBody({
        name: '  Signers  ',
        permissions: [{ moduleName: 'USERS' }, { moduleName: 'TEMPLATES', accessRights: { canDelete: false } }],
      }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Signers',
      description: 'A role',
      status: 'ACTIVE',
      membersCount: 0,
      signatureSettings: ALL_ALLOWED,
      permissions: [
        { moduleName: 'TEMPLATES', accessRights: { canView: true, canAdd: true, canEdit: true, canDelete: false } },
        { moduleName: 'USERS', accessRights: { canView: true, canAdd: true, canEdit: true, canDelete: true } },
      ],
    });
    const id = res.body.id;
    expect((await t.request('GET', `/user/v1/roles/${id}`, { token: owner.token })).body.name).toBe('Signers');

    const updated = await t.request('PUT', `/user/v1/roles/${id}`, {
      token: owner.token,
      body: { name: 'Senders', signatureSettings: { ...ALL_ALLOWED, quotaElectronic: 3 }, status: 'INACTIVE' },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({
      name: 'Senders',
      description: 'A role',
      status: 'INACTIVE',
      signatureSettings: { quotaElectronic: 3 },
    });
    expect(updated.body.permissions).toHaveLength(2);

    const replaced = await t.request('PUT', `/user/v1/roles/${id}/permissions`, {
      token: owner.token,
      body: [{ moduleName: 'BRANDING', accessRights: { canView: true, canAdd: false } }],
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.permissions).toEqual([
      { moduleName: 'BRANDING', accessRights: { canView: true, canAdd: false, canEdit: true, canDelete: true } },
    ]);
    const emptied = await t.request('PUT', `/user/v1/roles/${id}/permissions`, { token: owner.token, body: [] });
    expect(emptied.body.permissions).toEqual([]);
  });

  it('filters by name, description, status and searchValue, pages, and answers the available list', async () => {
    const owner = await createUser(t);
    await createRole(t, owner, { name: 'Alpha reviewers', description: 'reads contracts' });
    await createRole(t, owner, { name: 'Beta senders', description: 'sends 100% of mail_outs' });
    await createRole(t, owner, { name: 'Gamma', description: 'inactive one', status: 'DISABLED' });
    const list = async (query: string) =>
      (await t.request('GET', `/user/v1/roles?${query}`, { token: owner.token })).body;
    expect((await list('')).content.map((r: any) => r.name)).toEqual(['Alpha reviewers', 'Beta senders', 'Gamma']);
    expect((await list('name=BETA')).content.map((r: any) => r.name)).toEqual(['Beta senders']);
    expect((await list('description=contract')).content.map((r: any) => r.name)).toEqual(['Alpha reviewers']);
    expect((await list('status=DISABLED')).content.map((r: any) => r.name)).toEqual(['Gamma']);
    expect((await list('searchValue=inactive')).content.map((r: any) => r.name)).toEqual(['Gamma']);
    expect((await list('searchValue=100%25')).content.map((r: any) => r.name)).toEqual(['Beta senders']);
    expect((await list('searchValue=_')).content.map((r: any) => r.name)).toEqual(['Beta senders']);
    const page = await list('page=1&size=2');
    expect(page).toMatchObject({ totalElements: 3, totalPages: 2, number: 1, size: 2 });
    expect(page.content.map((r: any) => r.name)).toEqual(['Gamma']);
    expect(await list('page=5&size=2')).toMatchObject({ content: [], totalElements: 3, totalPages: 2 });
    expect(await list('name=nothing')).toMatchObject({ content: [], totalElements: 0, totalPages: 0 });
    expect((await t.request('GET', '/user/v1/roles?status=GONE', { token: owner.token })).status).toBe(400);
    const available = await t.request('GET', '/user/v1/roles/available', { token: owner.token });
    expect(available.status).toBe(200);
    expect(available.body.map((r: any) => r.roleName)).toEqual(['Alpha reviewers', 'Beta senders']);
    expect(Object.keys(available.body[0]).sort()).toEqual(['roleId', 'roleName']);
  });

  it('a name is unique in the organization ignoring case (409), but another organization may use it', async () => {
    const owner = await createUser(t);
    await createRole(t, owner, { name: 'Managers' });
    const dup = await t.request('POST', '/user/v1/roles', {
      token: owner.token,
      body: roleBody({ name: 'managers ' }),
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ message: 'ROLE_NAME_TAKEN', errorCode: 17002 });
    const other = await createRole(t, owner, { name: 'Others' });
    expect(
      (
        await t.request('PUT', `/user/v1/roles/${other.id}`, {
          token: owner.token,
          body: roleBody({ name: 'MANAGERS' }),
        })
      ).status,
    ).toBe(409);
    expect(
      (await t.request('PUT', `/user/v1/roles/${other.id}`, { token: owner.token, body: roleBody({ name: 'Others' }) }))
        .status,
    ).toBe(200);
    const stranger = await createUser(t);
    expect(
      (await t.request('POST', '/user/v1/roles', { token: stranger.token, body: roleBody({ name: 'Managers' }) }))
        .status,
    ).toBe(200);
  });

  it('refuses bad bodies: unknown module, a module twice, missing settings, names at the limits, bad types', async () => {
    const owner = await createUser(t);
    const post = (body: unknown) => t.request('POST', '/user/v1/roles', { token: owner.token, body });
    const unknownModule = await post(roleBody({ permissions: [{ moduleName: 'PAYROLL' }] }));
    expect(unknownModule.status).toBe(400);
    expect(unknownModule.body.message).toBe('BAD_REQUEST_BODY');
    expect(
      (await post(roleBody({ permissions: [{ moduleName: 'USERS' }, { moduleName: 'USERS' }] }))).body.message,
    ).toBe('INVALID_REQUEST_BODY');
    const { quotaQualified: _omitted, ...missingQuota } = ALL_ALLOWED;
    expect((await post(roleBody({ signatureSettings: missingQuota }))).status).toBe(400);
    expect((await post({ name: 'No settings' })).status).toBe(400);
    expect((await post(roleBody({ signatureSettings: { ...ALL_ALLOWED, quotaElectronic: -1 } }))).status).toBe(400);
    expect((await post(roleBody({ signatureSettings: { ...ALL_ALLOWED, allowDocSend: 'yes' } }))).status).toBe(400);
    expect(
      (await post(roleBody({ permissions: [{ moduleName: 'USERS', accessRights: { canView: 1 } }] }))).status,
    ).toBe(400);
    expect((await post(roleBody({ status: 'ARCHIVED' }))).status).toBe(400);
    expect((await post(roleBody({ name: '' }))).status).toBe(400);
    expect((await post(roleBody({ name: '   ' }))).body.message).toBe('INVALID_REQUEST_BODY');
    expect((await post(roleBody({ name: 'x'.repeat(51) }))).status).toBe(400);
    expect((await post(roleBody({ name: 'x'.repeat(50) }))).status).toBe(200);
    expect((await post(roleBody({ name: 'y' }))).status).toBe(200);
    expect((await post(roleBody({ description: 'd'.repeat(501) }))).status).toBe(400);
    expect((await t.request('POST', '/user/v1/roles', { token: owner.token, body: '{"name":' })).status).toBe(400);
    expect(
      (await t.request('PUT', '/user/v1/roles/1/permissions', { token: owner.token, body: { moduleName: 'USERS' } }))
        .status,
    ).toBe(400);
  });
});

describe('deleting roles', () => {
  it('deletes unused roles, all or nothing; a role in use (invited members included) is 409 with its members count', async () => {
    const owner = await createUser(t);
    const used = await createRole(t, owner);
    const free = await createRole(t, owner);
    await addMember(t, owner, used.id);
    const invitee = await createUser(t);
    expect(
      (
        await t.request('POST', '/organization/v1/user', {
          token: owner.token,
          body: { name: 'Ivy Invitee', emailAddress: invitee.email, role: used.id },
        })
      ).status,
    ).toBe(200);
    const refused = await t.request('DELETE', `/user/v1/roles?roleId=${free.id}&roleId=${used.id}`, {
      token: owner.token,
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      message: 'ROLE_IN_USE',
      errorCode: 17003,
      responseBody: { roleId: used.id, membersCount: 2 },
    });
    expect((await t.request('GET', `/user/v1/roles/${free.id}`, { token: owner.token })).status).toBe(200);
    expect((await t.request('GET', `/user/v1/roles/${used.id}`, { token: owner.token })).body.membersCount).toBe(2);
    const deleted = await t.request('DELETE', `/user/v1/roles?roleId=${free.id}`, { token: owner.token });
    expect(deleted.status).toBe(204);
    expect((await t.request('GET', `/user/v1/roles/${free.id}`, { token: owner.token })).status).toBe(404);
    expect((await t.request('DELETE', `/user/v1/roles?roleId=${free.id}`, { token: owner.token })).status).toBe(404);
    expect((await t.request('DELETE', '/user/v1/roles', { token: owner.token })).status).toBe(400);
    expect((await t.request('DELETE', '/user/v1/roles?roleId=abc', { token: owner.token })).status).toBe(400);
  });
});

describe('who may manage roles', () => {
  it('no token 401, guest 403, business-app token of a member without the right 403, another organization 404', async () => {
    const owner = await createUser(t);
    const role = await createRole(t, owner);
    expect((await t.request('GET', '/user/v1/roles')).status).toBe(401);
    expect((await t.request('POST', '/user/v1/roles', { body: roleBody() })).status).toBe(401);
    const { workflow } = await createDraftWorkflow(t, owner);
    const row = await insertRecipient(t, workflow.id, { userId: owner.userId, name: 'Owner Self', email: owner.email });
    const guest = await guestToken(t, row);
    expect((await t.request('GET', '/user/v1/roles', { token: guest })).status).toBe(403);
    expect((await t.request('GET', '/user/v1/roles/available', { token: guest })).status).toBe(403);
    const stranger = await createUser(t);
    for (const [method, url, body] of [
      ['GET', `/user/v1/roles/${role.id}`, undefined],
      ['PUT', `/user/v1/roles/${role.id}`, roleBody()],
      ['PUT', `/user/v1/roles/${role.id}/permissions`, []],
      ['DELETE', `/user/v1/roles?roleId=${role.id}`, undefined],
    ] as const) {
      const res = await t.request(method, url, { token: stranger.token, body });
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    expect((await t.request('GET', '/user/v1/roles', { token: stranger.token })).body.totalElements).toBe(0);
  });

  it('a member acts exactly as far as the ROLES rights of their role go', async () => {
    const owner = await createUser(t);
    const viewer = await createRole(t, owner, { permissions: [grant('ROLES', { canView: true })] });
    const editor = await createRole(t, owner, {
      permissions: [grant('ROLES', { canView: true, canAdd: true, canEdit: true })],
    });
    const target = await createRole(t, owner);
    const noRole = await addMember(t, owner, null, 'Nora None');
    const reader = await addMember(t, owner, viewer.id, 'Rita Reader');
    const writer = await addMember(t, owner, editor.id, 'Will Writer');
    expect((await t.request('GET', '/user/v1/roles', { token: noRole.token })).status).toBe(403);
    expect((await t.request('GET', '/user/v1/roles/available', { token: noRole.token })).status).toBe(200);
    expect((await t.request('GET', '/user/v1/roles', { token: reader.token })).status).toBe(200);
    expect((await t.request('POST', '/user/v1/roles', { token: reader.token, body: roleBody() })).status).toBe(403);
    expect((await t.request('POST', '/user/v1/roles', { token: writer.token, body: roleBody() })).status).toBe(200);
    expect(
      (await t.request('PUT', `/user/v1/roles/${target.id}/permissions`, { token: writer.token, body: [] })).status,
    ).toBe(200);
    const refused = await t.request('DELETE', `/user/v1/roles?roleId=${target.id}`, { token: writer.token });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('USER_NOT_HAVE_ACCESS');
    // Rights follow the stored role on the next request: revoking canView takes effect at once.
    await t.request('PUT', `/user/v1/roles/${viewer.id}/permissions`, { token: owner.token, body: [grant('ROLES')] });
    expect((await t.request('GET', '/user/v1/roles', { token: reader.token })).status).toBe(403);
    // A role that is not ACTIVE grants nothing.
    await t.request('PUT', `/user/v1/roles/${editor.id}`, {
      token: owner.token,
      body: roleBody({ name: 'Editors', status: 'INACTIVE' }),
    });
    expect((await t.request('GET', '/user/v1/roles', { token: writer.token })).status).toBe(403);
  });

  it('a business-app token acting for the owner is refused on member and role management, reads included', async () => {
    const owner = await createUser(t);
    const app = await insertBusinessApp(t, owner.organizationId);
    const session = await t.request('POST', '/auth/v1/signin', {
      body: {
        grant_type: 'CLIENT_CREDENTIALS',
        client_id: app.clientId,
        client_secret: app.clientSecret,
        email: owner.email,
      },
    });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    const token = session.body.accessToken;
    expect((await t.request('GET', '/organization/v1/users', { token })).status).toBe(403);
    expect(
      (
        await t.request('POST', '/organization/v1/user', {
          token,
          body: { name: 'Ann Partner', emailAddress: 'ann@example.com' },
        })
      ).status,
    ).toBe(403);
    for (const url of ['/user/v1/roles', '/user/v1/roles/available'])
      expect((await t.request('GET', url, { token })).status, url).toBe(403);
    expect((await t.request('POST', '/user/v1/roles', { token, body: roleBody() })).status).toBe(403);
    void signIn;
  });
});
