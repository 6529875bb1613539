import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { signIn, signUp } from '../helpers/auth.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

describe('GET /user/v1/settings/profile', () => {
  it('answers the caller\'s profile with null cloud-import fields', async () => {
    const account = await signUp(t, { name: 'Paula Profile', email: 'Paula@Example.com' });
    const { accessToken } = await signIn(t, account.email, account.password);
    const res = await t.request('GET', '/user/v1/settings/profile', { token: accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: account.userId, name: 'Paula Profile', email: 'paula@example.com', organizationId: account.organizationId,
      twoFactorEnabled: false, driveClientId: null, driveApiKey: null, boxAppKey: null,
    });
    // Nothing secret leaks.
    expect(res.raw).not.toMatch(/password|totp/i);
  });
});
