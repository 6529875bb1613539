import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import { createUser, guestToken } from '../helpers/factories.ts';
import { addresseesWantMail } from '../../src/modules/users/users.service.ts';

const ALL_ON = {
  workflowCompleted: true,
  workflowDeclined: true,
  workflowDelegated: true,
  workflowVoided: true,
  commentAdded: true,
  documentOpened: true,
};

describe('notification preferences', () => {
  test('are all on by default; a PUT changes the members it names and keeps the others', async ({ app: t }) => {
    const user = await createUser(t);
    expect((await t.request('GET', '/user/v1/settings/notifications', { token: user.token })).body).toEqual(ALL_ON);
    const first = await t.request('PUT', '/user/v1/settings/notifications', {
      token: user.token,
      body: { commentAdded: false, documentOpened: false },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ...ALL_ON, commentAdded: false, documentOpened: false });
    const second = await t.request('PUT', '/user/v1/settings/notifications', {
      token: user.token,
      body: { documentOpened: true, unknownMail: false },
    });
    expect(second.body).toEqual({ ...ALL_ON, commentAdded: false });
    expect((await t.request('GET', '/user/v1/settings/notifications', { token: user.token })).body).toEqual(
      second.body,
    );
    // Another user is untouched.
    expect(
      (await t.request('GET', '/user/v1/settings/notifications', { token: (await createUser(t)).token })).body,
    ).toEqual(ALL_ON);
    // What the outbox asks: optional kinds follow the preference, the others are always wanted.
    const kinds = ['COMMENT_ADDED', 'COMPLETED', 'COMMENCE'];
    expect(
      await addresseesWantMail(
        t.platform.db,
        kinds.map((kind) => ({ address: user.email, kind })),
      ),
    ).toEqual([false, true, true]);
  });

  test('refuses a value that is not a boolean, and callers that are not users', async ({ app: t }) => {
    const user = await createUser(t);
    expect(
      (await t.request('PUT', '/user/v1/settings/notifications', { token: user.token, body: { commentAdded: 'no' } }))
        .status,
    ).toBe(400);
    expect((await t.request('PUT', '/user/v1/settings/notifications', { token: user.token, body: [] })).status).toBe(
      400,
    );
    const guest = await guestToken(t, { id: 1, userId: user.userId, workflowId: 1 });
    for (const method of ['GET', 'PUT']) {
      expect((await t.request(method, '/user/v1/settings/notifications')).status).toBe(401);
      expect((await t.request(method, '/user/v1/settings/notifications', { token: guest, body: {} })).status).toBe(403);
    }
  });
});

describe('locale', () => {
  test('is en by default and takes any BCP 47 tag, stored canonical and shown in the profile', async ({ app: t }) => {
    const user = await createUser(t);
    expect((await t.request('GET', '/user/v1/settings/locale', { token: user.token })).body).toEqual({ locale: 'en' });
    const res = await t.request('PUT', '/user/v1/settings/locale', { token: user.token, body: { locale: 'de-ch' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ locale: 'de-CH' });
    expect((await t.request('GET', '/user/v1/settings/locale', { token: user.token })).body).toEqual({
      locale: 'de-CH',
    });
    expect((await t.request('GET', '/user/v1/settings/profile', { token: user.token })).body.locale).toBe('de-CH');
  });

  test('refuses what is not a language tag', async ({ app: t }) => {
    const user = await createUser(t);
    for (const locale of ['', 'e', 'english please', 'de_CH', 'x'.repeat(40), 'en-abcdefghi']) {
      const res = await t.request('PUT', '/user/v1/settings/locale', { token: user.token, body: { locale } });
      expect(res.status, locale).toBe(400);
    }
    expect((await t.request('PUT', '/user/v1/settings/locale', { token: user.token, body: {} })).status).toBe(400);
    expect((await t.request('GET', '/user/v1/settings/locale', { token: user.token })).body).toEqual({ locale: 'en' });
    const guest = await guestToken(t, { id: 1, userId: user.userId, workflowId: 1 });
    expect((await t.request('PUT', '/user/v1/settings/locale', { token: guest, body: { locale: 'fr' } })).status).toBe(
      403,
    );
    expect((await t.request('GET', '/user/v1/settings/locale')).status).toBe(401);
  });
});
