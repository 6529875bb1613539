import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATIONS_OF_ADDRESS, INVITATIONS_PER_ORGANIZATION } from '../../src/platform/limits/attempts.ts';
import { createUser } from '../helpers/factories.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/*
 * The attack: invitations always leave through the platform's own mail (they prove the address), and inviting had no
 * limit and no verified-sender check: a fresh account that never confirmed its address could invite any address,
 * withdraw, invite again, in a loop, and mail-bomb it from the platform's domain. Now inviting needs a verified
 * address (403 EMAIL_NOT_VERIFIED), an organization sends at most INVITATIONS_PER_ORGANIZATION.max invitations an
 * hour and one address gets at most INVITATIONS_OF_ADDRESS.max from it a day: beyond, 429 INVITATION_LIMIT_REACHED
 * with Retry-After, and no mail.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const invite = (token: string, emailAddress: string) =>
  t.request('POST', '/organization/v1/user', { token, body: { name: 'Vera Victim', emailAddress } });

async function withdraw(token: string, userId: number) {
  const res = await t.request('DELETE', `/organization/v1/user?ids=${userId}&isJoinedUser=false`, { token });
  expect(res.status, res.raw).toBe(204);
}

function expectLimited(res: { status: number; body: any; headers: Record<string, any>; raw: string }) {
  expect(res.status, res.raw).toBe(429);
  expect(res.body.message).toBe('INVITATION_LIMIT_REACHED');
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe('invitations cannot be used to mail-bomb an address', () => {
  it('an account whose address is not verified cannot invite (403 EMAIL_NOT_VERIFIED), and nothing is mailed', async () => {
    const fresh = await createUser(t, { name: 'Mallory Fresh', emailVerified: false });
    const res = await invite(fresh.token, 'vera.unverified@example.com');
    expect(res.status, res.raw).toBe(403);
    expect(res.body.message).toBe('EMAIL_NOT_VERIFIED');
    expect(await t.mails({ to: 'vera.unverified@example.com' })).toEqual([]);
  });

  it(`withdraw and invite again: one address gets at most ${INVITATIONS_OF_ADDRESS.max} invitations a day from one organization`, async () => {
    const attacker = await createUser(t, { name: 'Mallory Looper' });
    const victim = 'vera.looped@example.com';
    for (let i = 0; i < INVITATIONS_OF_ADDRESS.max; i++) {
      const res = await invite(attacker.token, victim);
      expect(res.status, res.raw).toBe(200);
      await withdraw(attacker.token, res.body.userId);
    }
    const again = await invite(attacker.token, victim);
    expectLimited(again);
    expect(again.body.responseBody).toMatchObject({
      limit: INVITATIONS_OF_ADDRESS.max,
      windowSeconds: INVITATIONS_OF_ADDRESS.windowSeconds,
    });
    expect(await t.mails({ to: victim, kind: 'ORGANIZATION_INVITATION' })).toHaveLength(INVITATIONS_OF_ADDRESS.max);
    // Another organization's invitation of the same address is its own count.
    const other = await createUser(t, { name: 'Olga Other' });
    expect((await invite(other.token, victim)).status).toBe(200);
  });

  it(`an organization sends at most ${INVITATIONS_PER_ORGANIZATION.max} invitations an hour`, async () => {
    const attacker = await createUser(t, { name: 'Mallory Spammer' });
    for (let i = 0; i < INVITATIONS_PER_ORGANIZATION.max; i++) {
      const res = await invite(attacker.token, `spam-${i}@example.com`);
      expect(res.status, res.raw).toBe(200);
    }
    const beyond = await invite(attacker.token, 'spam-beyond@example.com');
    expectLimited(beyond);
    expect(beyond.body.responseBody).toMatchObject({
      limit: INVITATIONS_PER_ORGANIZATION.max,
      windowSeconds: INVITATIONS_PER_ORGANIZATION.windowSeconds,
    });
    expect(await t.mails({ to: 'spam-beyond@example.com' })).toEqual([]);
  }, 120_000);
});
