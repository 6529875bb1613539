import crypto from 'node:crypto';
import { describe, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { fileUser, test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, guestToken, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { uploadFile } from '../helpers/documents.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { businessApps } from '../../src/platform/db/schema/index.ts';
import { appBody, clientSignin, expectError, memberOf, registerApp } from './helpers.ts';

const test = base.extend<{ outsider: TestUser }>({
  outsider: fileUser({ name: 'Otto Outsider' }),
});

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const storedApp = async (t: TestApp, id: number) =>
  (await t.platform.db.select().from(businessApps).where(eq(businessApps.id, id)))[0];

describe('POST /organization/v1/apps', () => {
  test("registers the app and answers RUNTIME.md's shape with both secrets, stored hashed and encrypted", async ({
    app: t,
    owner,
  }) => {
    const body = appBody({ callbackUrl: 'https://partner.example.com/hooks#ignored' });
    const res = await t.request('POST', '/organization/v1/apps', { token: owner.token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      clientId: body.clientId,
      appName: body.appName,
      callbackUrl: 'https://partner.example.com/hooks',
      status: true,
      clientSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      webhookSecret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    const row = await storedApp(t, res.body.id);
    expect(row.organizationId).toBe(owner.organizationId);
    expect(row.secretHash).toBe(sha256(res.body.clientSecret));
    expect(row.webhookSecret).not.toContain(res.body.webhookSecret.slice(6));
    expect(t.platform.secrets.decrypt(row.webhookSecret!)).toBe(res.body.webhookSecret);

    // Shown once: reads never carry a secret.
    const one = await t.request('GET', `/organization/v1/apps/${res.body.id}`, { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      id: res.body.id,
      clientId: body.clientId,
      appName: body.appName,
      callbackUrl: 'https://partner.example.com/hooks',
      status: true,
      webhooksEnabled: true,
      callbackFailingSince: null,
      callbackPausedAt: null,
      createdAt: expect.any(String),
    });
    const list = await t.request('GET', '/organization/v1/apps', { token: owner.token });
    expect(list.body.map((a: { id: number }) => a.id)).toContain(res.body.id);
    expect(JSON.stringify(list.body)).not.toContain(res.body.clientSecret);

    // The client secret works with grant CLIENT_CREDENTIALS and yields a CLIENT token carrying the app.
    const session = await clientSignin(t, res.body, owner.email);
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    expect(await t.platform.tokens.verify(session.body.accessToken)).toMatchObject({
      type: 'CLIENT',
      appId: res.body.id,
      organizationId: owner.organizationId,
    });
  });

  test('stores a disabled app when status is false, and defaults to enabled', async ({ app: t, owner }) => {
    const disabled = await registerApp(t, owner.token, { status: false });
    expect(disabled.status).toBe(false);
    expectError(await clientSignin(t, disabled, owner.email), 401, 'INVALID_CLIENT');
    const { status: _omitted, ...body } = appBody();
    const res = await t.request('POST', '/organization/v1/apps', { token: owner.token, body });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
  });

  test('answers 409 for a client id used anywhere and for an app name the organization uses (ignoring case)', async ({
    app: t,
    owner,
    outsider,
  }) => {
    const first = await registerApp(t, owner.token);
    expectError(
      await t.request('POST', '/organization/v1/apps', {
        token: owner.token,
        body: appBody({ clientId: first.clientId }),
      }),
      409,
      'BUSINESS_APP_CLIENT_ID_TAKEN',
    );
    expectError(
      await t.request('POST', '/organization/v1/apps', {
        token: outsider.token,
        body: appBody({ clientId: first.clientId }),
      }),
      409,
      'BUSINESS_APP_CLIENT_ID_TAKEN',
    );
    const clash = await t.request('POST', '/organization/v1/apps', {
      token: owner.token,
      body: appBody({ appName: `  ${first.appName.toUpperCase()} ` }),
    });
    expectError(clash, 409, 'BUSINESS_APP_NAME_TAKEN');
    expect(clash.body.errorCode).toBe(18103);
    // Another organization may use the same name.
    expect(
      (
        await t.request('POST', '/organization/v1/apps', {
          token: outsider.token,
          body: appBody({ appName: first.appName }),
        })
      ).status,
    ).toBe(200);
  });

  test('answers 409 to one of two concurrent registrations with the same client id', async ({ app: t, owner }) => {
    const body = appBody();
    const answers = await Promise.all([
      t.request('POST', '/organization/v1/apps', { token: owner.token, body }),
      t.request('POST', '/organization/v1/apps', {
        token: owner.token,
        body: { ...body, appName: `${body.appName} twin` },
      }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.message).toBe('BUSINESS_APP_CLIENT_ID_TAKEN');
  });

  test('refuses callback URLs that are not https, carry credentials, or lead to private, loopback or metadata addresses (400 18101)', async ({
    app: t,
    owner,
  }) => {
    for (const callbackUrl of [
      'http://partner.example.com/hooks',
      'ftp://partner.example.com/hooks',
      'not a url',
      '/relative/path',
      'https://user:secret@partner.example.com/hooks',
      'https://127.0.0.1/hooks',
      'https://10.1.2.3/hooks',
      'https://192.168.1.20:8443/x',
      'https://[::1]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://169.254.169.254/latest/meta-data/',
      'https://100.100.100.200/',
      'https://localhost/hooks',
      'https://hooks.localhost/x',
    ]) {
      const res = await t.request('POST', '/organization/v1/apps', {
        token: owner.token,
        body: appBody({ callbackUrl }),
      });
      expect(res.status, `${callbackUrl}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body, callbackUrl).toMatchObject({ message: 'BUSINESS_APP_CALLBACK_REFUSED', errorCode: 18101 });
    }
  });

  test('answers 400 for malformed bodies and values past each limit', async ({ app: t, owner }) => {
    const bad: Record<string, unknown>[] = [
      {},
      appBody({ clientId: undefined }),
      appBody({ appName: undefined }),
      appBody({ callbackUrl: undefined }),
      appBody({ clientId: 'ab' }),
      appBody({ clientId: 'x'.repeat(101) }),
      appBody({ clientId: 'has space' }),
      appBody({ clientId: '-leading' }),
      appBody({ clientId: 42 }),
      appBody({ appName: '' }),
      appBody({ appName: 'n'.repeat(101) }),
      appBody({ status: 'yes' }),
      appBody({ callbackUrl: `https://partner.example.com/${'p'.repeat(2048)}` }),
    ];
    for (const body of bad) {
      const res = await t.request('POST', '/organization/v1/apps', {
        token: owner.token,
        body: JSON.parse(JSON.stringify(body)),
      });
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
    }
    expectError(
      await t.request('POST', '/organization/v1/apps', { token: owner.token, body: appBody({ appName: '   ' }) }),
      400,
      'INVALID_REQUEST_BODY',
    );
    expect(
      (await t.request('POST', '/organization/v1/apps', { token: owner.token, body: '{"clientId":' })).status,
    ).toBe(400);
    // The limits themselves are accepted (registered disabled: the organization's enabled apps are limited to 10).
    expect(
      (
        await t.request('POST', '/organization/v1/apps', {
          token: owner.token,
          body: appBody({ clientId: `c${'x'.repeat(99)}`, appName: 'n'.repeat(100), status: false }),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await t.request('POST', '/organization/v1/apps', {
          token: owner.token,
          body: appBody({ clientId: 'abc', status: false }),
        })
      ).status,
    ).toBe(200);
  });
});

describe('who may manage business apps', () => {
  test('refuses no token (401), a guest (403), members without the right (403), and a CLIENT token even of the owner (403)', async ({
    app: t,
    owner,
  }) => {
    const app = await registerApp(t, owner.token);
    const viewer = await memberOf(t, owner, [
      { moduleName: 'BUSINESS_APPS', accessRights: { canView: true, canEdit: false } },
    ]);
    const editor = await memberOf(t, owner, [{ moduleName: 'BUSINESS_APPS', accessRights: { canView: true } }]);
    const stranger = await memberOf(t, owner, [{ moduleName: 'TEMPLATES', accessRights: {} }]);
    const { workflow } = await createDraftWorkflow(t, owner);
    const recipient = await insertRecipient(t, workflow.id, {
      userId: stranger.userId,
      name: 'Guest Person',
      email: stranger.email,
    });
    const guest = await guestToken(t, { id: recipient.id, userId: stranger.userId, workflowId: workflow.id });
    const client = (await clientSignin(t, app, owner.email)).body.accessToken as string;

    const calls: [string, string, unknown?][] = [
      ['POST', '/organization/v1/apps', appBody()],
      ['GET', '/organization/v1/apps'],
      ['GET', `/organization/v1/apps/${app.id}`],
      ['PUT', `/organization/v1/apps/${app.id}/status`, { status: true }],
      ['POST', `/organization/v1/apps/${app.id}/secrets`, { secret: 'WEBHOOK' }],
      ['PUT', `/organization/v1/apps/${app.id}`, { appName: 'Renamed by a stranger' }],
    ];
    for (const [method, url, body] of calls) {
      expectError(await t.request(method, url, { body }), 401, 'UNAUTHORIZED');
      expectError(await t.request(method, url, { token: guest, body }), 403, 'USER_NOT_HAVE_ACCESS');
      expectError(await t.request(method, url, { token: stranger.token, body }), 403, 'USER_NOT_HAVE_ACCESS');
      expectError(await t.request(method, url, { token: client, body }), 403, 'USER_NOT_HAVE_ACCESS');
    }
    // canView reads; registration and rotation stay the owner's; canEdit (defaulting to true when omitted) toggles the status.
    expect((await t.request('GET', '/organization/v1/apps', { token: viewer.token })).status).toBe(200);
    expect((await t.request('GET', `/organization/v1/apps/${app.id}`, { token: viewer.token })).status).toBe(200);
    expectError(
      await t.request('PUT', `/organization/v1/apps/${app.id}/status`, {
        token: viewer.token,
        body: { status: false },
      }),
      403,
      'USER_NOT_HAVE_ACCESS',
    );
    expectError(
      await t.request('POST', '/organization/v1/apps', { token: editor.token, body: appBody() }),
      403,
      'USER_NOT_HAVE_ACCESS',
    );
    expectError(
      await t.request('POST', `/organization/v1/apps/${app.id}/secrets`, {
        token: editor.token,
        body: { secret: 'BOTH' },
      }),
      403,
      'USER_NOT_HAVE_ACCESS',
    );
    // Where its webhooks go is the owner's to change.
    expectError(
      await t.request('PUT', `/organization/v1/apps/${app.id}`, {
        token: editor.token,
        body: { callbackUrl: 'https://elsewhere.example.com/' },
      }),
      403,
      'USER_NOT_HAVE_ACCESS',
    );
    const toggled = await t.request('PUT', `/organization/v1/apps/${app.id}/status`, {
      token: editor.token,
      body: { status: false },
    });
    expect(toggled.status).toBe(200);
    expect(toggled.body.status).toBe(false);
  });

  test("answers 404 to another organization's owner and never lists another organization's apps", async ({
    app: t,
    owner,
    outsider,
  }) => {
    const app = await registerApp(t, owner.token);
    expectError(await t.request('GET', `/organization/v1/apps/${app.id}`, { token: outsider.token }), 404, 'NOT_FOUND');
    expectError(
      await t.request('PUT', `/organization/v1/apps/${app.id}/status`, {
        token: outsider.token,
        body: { status: false },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.request('POST', `/organization/v1/apps/${app.id}/secrets`, {
        token: outsider.token,
        body: { secret: 'BOTH' },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.request('PUT', `/organization/v1/apps/${app.id}`, {
        token: outsider.token,
        body: { appName: 'Hijacked' },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(await t.request('GET', '/organization/v1/apps/999999', { token: owner.token }), 404, 'NOT_FOUND');
    const theirs = await t.request('GET', '/organization/v1/apps', { token: outsider.token });
    expect(theirs.body.map((a: { id: number }) => a.id)).not.toContain(app.id);
    expect((await storedApp(t, app.id)).status).toBe(true);
  });

  test('answers 400 for malformed status and rotation bodies and ids', async ({ app: t, owner }) => {
    const app = await registerApp(t, owner.token, { status: false });
    for (const body of [{}, { status: 'false' }, { status: null }]) {
      expect(
        (await t.request('PUT', `/organization/v1/apps/${app.id}/status`, { token: owner.token, body })).status,
      ).toBe(400);
    }
    for (const body of [{}, { secret: 'ALL' }, { secret: 'client' }]) {
      expect(
        (await t.request('POST', `/organization/v1/apps/${app.id}/secrets`, { token: owner.token, body })).status,
      ).toBe(400);
    }
    expect((await t.request('GET', '/organization/v1/apps/abc', { token: owner.token })).status).toBe(400);
    expect((await t.request('GET', '/organization/v1/apps/0', { token: owner.token })).status).toBe(400);
  });
});

describe('disabling and rotating', () => {
  test("a disabled app's access and refresh tokens stop working, and re-enabling does not revive them", async ({
    app: t,
    owner,
  }) => {
    const app = await registerApp(t, owner.token);
    const session = (await clientSignin(t, app, owner.email)).body;
    expect((await t.request('GET', '/user/v1/settings/profile', { token: session.accessToken })).status).toBe(200);

    const off = await t.request('PUT', `/organization/v1/apps/${app.id}/status`, {
      token: owner.token,
      body: { status: false },
    });
    expect(off.body).toMatchObject({ id: app.id, status: false });
    expectError(
      await t.request('GET', '/user/v1/settings/profile', { token: session.accessToken }),
      401,
      'UNAUTHORIZED',
    );
    expectError(await clientSignin(t, app, owner.email), 401, 'INVALID_CLIENT');

    expect(
      (await t.request('PUT', `/organization/v1/apps/${app.id}/status`, { token: owner.token, body: { status: true } }))
        .body.status,
    ).toBe(true);
    expectError(
      await t.request('POST', '/auth/v1/signin', {
        body: { grant_type: 'REFRESH_TOKEN', refreshToken: session.refreshToken },
      }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
    // The access token verifies again (it has not expired): the account check is what it passes once the app is back.
    expect((await t.request('GET', '/user/v1/settings/profile', { token: session.accessToken })).status).toBe(200);
    expect((await clientSignin(t, app, owner.email)).status).toBe(200);
  });

  test("rotating the client secret refuses the old one and revokes the app's refresh tokens; the user's own session survives", async ({
    app: t,
    owner,
  }) => {
    const app = await registerApp(t, owner.token);
    const session = (await clientSignin(t, app, owner.email)).body;
    const own = await t.request('POST', '/auth/v1/signin', {
      body: { grant_type: 'PASSWORD', username: owner.email, password: owner.password },
    });
    const rotated = await t.request('POST', `/organization/v1/apps/${app.id}/secrets`, {
      token: owner.token,
      body: { secret: 'CLIENT' },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      id: app.id,
      clientId: app.clientId,
      appName: app.appName,
      callbackUrl: app.callbackUrl,
      status: true,
      clientSecret: expect.any(String),
    });
    expect(rotated.body.clientSecret).not.toBe(app.clientSecret);
    expectError(await clientSignin(t, app, owner.email), 401, 'INVALID_CLIENT');
    expect(
      (await clientSignin(t, { clientId: app.clientId, clientSecret: rotated.body.clientSecret }, owner.email)).status,
    ).toBe(200);
    expectError(
      await t.request('POST', '/auth/v1/signin', {
        body: { grant_type: 'REFRESH_TOKEN', refreshToken: session.refreshToken },
      }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
    expect(
      (
        await t.request('POST', '/auth/v1/signin', {
          body: { grant_type: 'REFRESH_TOKEN', refreshToken: own.body.refreshToken },
        })
      ).status,
    ).toBe(200);
    expect(t.platform.secrets.decrypt((await storedApp(t, app.id)).webhookSecret!)).toBe(app.webhookSecret);
  });

  test('rotating the webhook secret, or both, answers the new ones and stores them', async ({ app: t, owner }) => {
    const app = await registerApp(t, owner.token);
    const webhook = await t.request('POST', `/organization/v1/apps/${app.id}/secrets`, {
      token: owner.token,
      body: { secret: 'WEBHOOK' },
    });
    expect(Object.keys(webhook.body).sort()).toEqual([
      'appName',
      'callbackUrl',
      'clientId',
      'id',
      'status',
      'webhookSecret',
    ]);
    expect(webhook.body.webhookSecret).not.toBe(app.webhookSecret);
    expect(t.platform.secrets.decrypt((await storedApp(t, app.id)).webhookSecret!)).toBe(webhook.body.webhookSecret);
    expect((await clientSignin(t, app, owner.email)).status).toBe(200);

    const both = await t.request('POST', `/organization/v1/apps/${app.id}/secrets`, {
      token: owner.token,
      body: { secret: 'BOTH' },
    });
    expect(both.body).toMatchObject({
      clientSecret: expect.any(String),
      webhookSecret: expect.stringMatching(/^whsec_/),
    });
    const row = await storedApp(t, app.id);
    expect(row.secretHash).toBe(sha256(both.body.clientSecret));
    expect(t.platform.secrets.decrypt(row.webhookSecret!)).toBe(both.body.webhookSecret);
  });
});

describe('PUT /organization/v1/apps/{appId}', () => {
  test("renames the app and moves its callback under the registration's rules; members left out stay", async ({
    app: t,
    owner,
  }) => {
    const app = await registerApp(t, owner.token, { status: false });
    const other = await registerApp(t, owner.token, { status: false });
    const renamed = await t.request('PUT', `/organization/v1/apps/${app.id}`, {
      token: owner.token,
      body: { appName: '  Partner Renamed  ' },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({
      id: app.id,
      appName: 'Partner Renamed',
      callbackUrl: app.callbackUrl,
      status: false,
      callbackPausedAt: null,
    });
    const moved = await t.request('PUT', `/organization/v1/apps/${app.id}`, {
      token: owner.token,
      body: { callbackUrl: 'https://moved.example.com/hooks#x' },
    });
    expect(moved.body).toMatchObject({ appName: 'Partner Renamed', callbackUrl: 'https://moved.example.com/hooks' });
    expect(await storedApp(t, app.id)).toMatchObject({
      appName: 'Partner Renamed',
      callbackUrl: 'https://moved.example.com/hooks',
    });
    // The secrets are not shown and do not change.
    expect(JSON.stringify(moved.body)).not.toContain(app.webhookSecret);
    expect(t.platform.secrets.decrypt((await storedApp(t, app.id)).webhookSecret!)).toBe(app.webhookSecret);
    expect((await t.request('PUT', `/organization/v1/apps/${app.id}`, { token: owner.token, body: {} })).status).toBe(
      200,
    );

    expectError(
      await t.request('PUT', `/organization/v1/apps/${app.id}`, {
        token: owner.token,
        body: { appName: other.appName.toLowerCase() },
      }),
      409,
      'BUSINESS_APP_NAME_TAKEN',
    );
    expectError(
      await t.request('PUT', `/organization/v1/apps/${app.id}`, { token: owner.token, body: { appName: '   ' } }),
      400,
      'INVALID_REQUEST_BODY',
    );
    for (const callbackUrl of [
      'http://moved.example.com/',
      'https://127.0.0.1/',
      'https://user:pw@moved.example.com/',
    ]) {
      expectError(
        await t.request('PUT', `/organization/v1/apps/${app.id}`, { token: owner.token, body: { callbackUrl } }),
        400,
        'BUSINESS_APP_CALLBACK_REFUSED',
      );
    }
    for (const body of [{ appName: 'n'.repeat(101) }, { callbackUrl: '' }, { appName: 7 }, { callbackUrl: null }]) {
      expect(
        (await t.request('PUT', `/organization/v1/apps/${app.id}`, { token: owner.token, body })).status,
        JSON.stringify(body),
      ).toBe(400);
    }
    // Members this endpoint does not take are dropped, as everywhere: the client id and the status stay.
    expect(
      (
        await t.request('PUT', `/organization/v1/apps/${app.id}`, {
          token: owner.token,
          body: { clientId: 'new-id', status: true },
        })
      ).status,
    ).toBe(200);
    expect(await storedApp(t, app.id)).toMatchObject({
      clientId: app.clientId,
      appName: 'Partner Renamed',
      callbackUrl: 'https://moved.example.com/hooks',
      status: false,
    });
  });
});

describe('a CLIENT token', () => {
  test("creates workflows as its user and reads them; another organization's workflow is 404", async ({
    app: t,
    owner,
    outsider,
  }) => {
    const app = await registerApp(t, owner.token);
    const client = (await clientSignin(t, app, owner.email)).body.accessToken as string;
    const upload = await uploadFile(t, client, 'contract.pdf', await makePdf(1));
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const detail = await t.request('GET', `/document/v1/docs-detail/${upload.body.workflowId}`, { token: client });
    expect(detail.status, JSON.stringify(detail.body)).toBe(200);
    const list = await t.request('GET', '/document/v1', { token: client });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain(`"workflowId":${upload.body.workflowId}`);

    const { workflow: foreign } = await createDraftWorkflow(t, outsider);
    expect((await t.request('GET', `/document/v1/docs-detail/${foreign.id}`, { token: client })).status).toBe(404);
  });
});
