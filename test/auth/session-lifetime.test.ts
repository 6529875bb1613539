import { describe, expect } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { insertBusinessApp, signIn, signUp } from '../helpers/auth.ts';
import { commence, draftForSending, redeem, signingCodesOf } from '../helpers/signing.ts';
import {
  businessApps,
  memberships,
  organizations,
  recipients,
  refreshTokens,
  users,
  workflows,
} from '../../src/platform/db/schema/index.ts';
import { hashRefreshToken } from '../../src/modules/auth/sessions.ts';

/** Issue 7 item 9: sessions end at a fixed time, guest sessions with their link and their workflow, tokens with their account. */

const refresh = (t: TestApp, refreshToken: string) =>
  t.request('POST', '/auth/v1/signin', { body: { grant_type: 'REFRESH_TOKEN', refreshToken } });

async function tokenRow(t: TestApp, refreshToken: string) {
  const [row] = await t.platform.db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashRefreshToken(refreshToken)));
  return row;
}

function expectRefused(res: { status: number; body: any }) {
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body.message).toBe('INVALID_REFRESH_TOKEN');
}

describe('USER sessions', () => {
  test('refreshing never moves the end of the session; once it has passed, refresh is refused', async ({ app: t }) => {
    const user = await signUp(t, { name: 'Refresh Forever' });
    const first = await signIn(t, user.email, user.password);
    const firstRow = await tokenRow(t, first.refreshToken);
    let current = first.refreshToken;
    for (let i = 0; i < 3; i++) {
      const res = await refresh(t, current);
      expect(res.status).toBe(200);
      current = res.body.refreshToken;
      const row = await tokenRow(t, current);
      expect(row.sessionExpiresAt.getTime()).toBe(firstRow.sessionExpiresAt.getTime());
      expect(row.expiresAt.getTime()).toBeLessThanOrEqual(row.sessionExpiresAt.getTime());
    }

    // Ten seconds left: the next access token lives ten seconds, not 900.
    await t.platform.db
      .update(refreshTokens)
      .set({ sessionExpiresAt: new Date(Date.now() + 10_000) })
      .where(eq(refreshTokens.familyId, firstRow.familyId));
    const short = await refresh(t, current);
    expect(short.status).toBe(200);
    expect(short.body.expiry).toBeLessThanOrEqual(10);
    const claims = await t.platform.tokens.verify(short.body.accessToken);
    expect(claims!.exp * 1000).toBeLessThanOrEqual(Date.now() + 10_000);
    expect((await tokenRow(t, short.body.refreshToken)).expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 10_000);

    // The session's end passed while its refresh token would still be fresh.
    await t.platform.db
      .update(refreshTokens)
      .set({ sessionExpiresAt: new Date(Date.now() - 1000), expiresAt: new Date(Date.now() + 3600_000) })
      .where(eq(refreshTokens.familyId, firstRow.familyId));
    expectRefused(await refresh(t, short.body.refreshToken));
  });
});

describe('guest sessions', () => {
  async function guestSession(t: TestApp, owner: TestUser, linkExpiresAt?: Date) {
    const { workflow, rows } = await draftForSending(t, owner, { recipients: [{ name: 'Gina Guest' }] });
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    const code = signingCodesOf(t).mint(
      rows[0].id,
      workflow.id,
      linkExpiresAt ?? new Date(Date.now() + 30 * 24 * 3600_000),
    );
    const res = await redeem(t, code);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { workflow, row: rows[0], session: res.body };
  }

  test('end no later than their signing link', async ({ app: t, owner }) => {
    const linkExpiresAt = new Date(Date.now() + 120_000);
    const { session } = await guestSession(t, owner, linkExpiresAt);
    expect(session.expiry).toBeLessThanOrEqual(120);
    const row = await tokenRow(t, session.refreshToken);
    expect(row.sessionExpiresAt.getTime()).toBeLessThanOrEqual(linkExpiresAt.getTime());
    const renewed = await refresh(t, session.refreshToken);
    expect(renewed.status).toBe(200);
    expect(renewed.body.expiry).toBeLessThanOrEqual(120);
    const claims = await t.platform.tokens.verify(renewed.body.accessToken);
    expect(claims!.exp * 1000).toBeLessThanOrEqual(linkExpiresAt.getTime());
  });

  test('a link far from expiry still gives at most a 12-hour session', async ({ app: t, owner }) => {
    const { session } = await guestSession(t, owner);
    const row = await tokenRow(t, session.refreshToken);
    expect(row.sessionExpiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 12 * 3600_000);
  });

  test('refresh is refused once the workflow is VOID', async ({ app: t, owner }) => {
    const { workflow, session } = await guestSession(t, owner);
    const renewed = await refresh(t, session.refreshToken);
    expect(renewed.status).toBe(200);
    await t.platform.db.update(workflows).set({ status: 'VOID' }).where(eq(workflows.id, workflow.id));
    expectRefused(await refresh(t, renewed.body.refreshToken));
  });

  test('refresh is refused once the workflow is deleted', async ({ app: t, owner }) => {
    const { workflow, session } = await guestSession(t, owner);
    await t.platform.db.update(workflows).set({ deletedAt: new Date() }).where(eq(workflows.id, workflow.id));
    expectRefused(await refresh(t, session.refreshToken));
  });

  test('refresh is refused once the row was delegated away', async ({ app: t, owner }) => {
    const { workflow, row, session } = await guestSession(t, owner);
    const delegated = await t.request('POST', `/workflow/v1/${workflow.id}/recipients/${row.id}/delegate`, {
      token: session.accessToken,
      body: { name: 'Dora Delegate', emailAddress: 'dora.delegate@example.com' },
    });
    expect(delegated.status, JSON.stringify(delegated.body)).toBe(200);
    const [stored] = await t.platform.db.select().from(recipients).where(eq(recipients.id, row.id));
    expect(stored.status).toBe('DELEGATED');
    expectRefused(await refresh(t, session.refreshToken));
  });
});

describe('every USER or CLIENT request re-checks its account', () => {
  const profile = (t: TestApp, token: string) => t.request('GET', '/user/v1/settings/profile', { token });

  test('a token of a user whose membership ended answers 401', async ({ app: t }) => {
    const user = await createUser(t, { name: 'Left Company' });
    expect((await profile(t, user.token)).status).toBe(200);
    await t.platform.db
      .update(memberships)
      .set({ status: 'DECLINED' })
      .where(and(eq(memberships.userId, user.userId), eq(memberships.organizationId, user.organizationId)));
    const res = await profile(t, user.token);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('UNAUTHORIZED');
    // Also on routes open to participants.
    expect((await t.request('GET', '/document/v1?page=0&size=10', { token: user.token })).status).toBe(401);
  });

  test('a token of a removed account answers 401', async ({ app: t, owner }) => {
    const user = await createUser(t, { name: 'Removed User' });
    // The account and the organization it owns go together (foreign keys keep an organization's owner).
    await t.platform.db.transaction(async (tx) => {
      await tx.delete(memberships).where(eq(memberships.userId, user.userId));
      await tx.delete(organizations).where(eq(organizations.id, user.organizationId));
      await tx.delete(users).where(eq(users.id, user.userId));
    });
    expect((await profile(t, user.token)).status).toBe(401);
  });

  test('a USER token naming a guest user answers 401', async ({ app: t, owner }) => {
    const { rows } = await draftForSending(t, owner, { recipients: [{ name: 'Plain Guest' }] });
    const forged = await t.platform.tokens.sign(
      { sub: String(rows[0].userId), type: 'USER', organizationId: owner.organizationId },
      600,
    );
    expect((await profile(t, forged)).status).toBe(401);
  });

  test('a CLIENT token stops working when its business app is disabled', async ({ app: t }) => {
    const user = await createUser(t, { name: 'Partner User' });
    const app = await insertBusinessApp(t, user.organizationId);
    const res = await t.request('POST', '/auth/v1/signin', {
      body: {
        grant_type: 'CLIENT_CREDENTIALS',
        client_id: app.clientId,
        client_secret: app.clientSecret,
        email: user.email,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = () => t.request('GET', '/document/v1?page=0&size=10', { token: res.body.accessToken });
    expect((await list()).status).toBe(200);
    await t.platform.db.update(businessApps).set({ status: false }).where(eq(businessApps.id, app.appId));
    expect((await list()).status).toBe(401);
  });
});
