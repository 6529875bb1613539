import { describe, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { signIn, signUp } from '../helpers/auth.ts';
import { draftForSending, guestFromMail, commence } from '../helpers/signing.ts';
import { pngDataUrl } from '../helpers/ceremony.ts';
import { fields, users } from '../../src/platform/db/schema/index.ts';

/**
 * Issue 7 item 1: signing up with a guest recipient's email must not open that recipient's envelopes through
 * the new account until the address is verified by the link mailed at sign-up (RUNTIME.md "Accounts").
 */

function verificationCode(t: TestApp, text: string): string {
  const escaped = t.config.publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}/verify-email/([A-Za-z0-9_-]+)`).exec(text);
  if (!match) throw new Error(`no verification link in: ${text}`);
  return match[1];
}

async function verificationCodeFor(t: TestApp, email: string): Promise<string> {
  const mails = await t.mails({ to: email, kind: 'EMAIL_VERIFICATION' });
  expect(mails.length, `verification mails to ${email}`).toBeGreaterThan(0);
  return verificationCode(t, mails.at(-1)!.textBody);
}

/** Everything a recipient's account could do with the workflow, as status codes. */
async function reach(t: TestApp, token: string, workflowId: number, documentId: number) {
  const list = await t.request('GET', '/document/v1?page=0&size=50', { token });
  const counts = await t.request('GET', '/document/v1/count/documents-status', { token });
  return {
    listed: (list.body.content as any[]).some((item) => item.workflowId === workflowId),
    counts: counts.body,
    detail: (await t.request('GET', `/document/v1/docs-detail/${workflowId}`, { token })).status,
    document: (await t.request('GET', `/document/v1/${documentId}`, { token })).status,
    recipients: (await t.request('GET', `/workflow/v1/${workflowId}/recipients`, { token })).status,
    history: (await t.request('GET', `/workflow/v1/${workflowId}/history`, { token })).status,
    download: (
      await t.request(
        'GET',
        `/document/v1/download/${workflowId}?selectedOption=downloadDocument&documentId=${documentId}`,
        { token },
      )
    ).status,
  };
}

describe("sign-up over a guest recipient's email", () => {
  test('refuses the takeover before verification and allows it after', async ({ app: t, owner }) => {
    const { workflow, document, rows } = await draftForSending(t, owner, { recipients: [{ name: 'Vera Victim' }] });
    const victimEmail = rows[0].email;
    expect((await commence(t, owner, workflow.id)).status).toBe(200);

    // The attacker claims the guest's email.
    const attacker = await signUp(t, { name: 'Mallory Attacker', email: victimEmail, password: 'attacker password' });
    expect(attacker.userId).toBe(rows[0].userId);
    const session = await signIn(t, victimEmail, 'attacker password');

    const before = await reach(t, session.accessToken, workflow.id, document.id);
    expect(before).toMatchObject({
      listed: false,
      detail: 404,
      document: 404,
      recipients: 404,
      history: 404,
      download: 404,
    });
    expect(before.counts).toMatchObject({ sentDocCount: 0, pendingDocCount: 0 });
    // Nor can the account sign: the ceremony answers as for a workflow it cannot see.
    const [signatureField] = await t.platform.db.select().from(fields).where(eq(fields.recipientId, rows[0].id));
    const sign = () =>
      t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
        token: session.accessToken,
        body: { id: signatureField.id, image: pngDataUrl() },
      });
    const refused = await sign();
    expect(refused.status, JSON.stringify(refused.body)).toBe(404);

    // The signing link still works for whoever holds the mail.
    const guest = await guestFromMail(t, victimEmail);
    expect((await t.request('GET', `/workflow/v1/${workflow.id}/recipients`, { token: guest.token })).status).toBe(200);

    // A browser opening the mailed link (or a mail scanner fetching it) gets the page that asks to confirm: nothing is verified yet.
    const code = await verificationCodeFor(t, victimEmail);
    const page = await t.request('GET', `/verify-email/${code}`, {
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.raw).toContain('Confirm your email address');
    expect(
      (await t.platform.db.select().from(users).where(eq(users.id, attacker.userId)))[0].emailVerifiedAt,
    ).toBeNull();
    expect(await reach(t, session.accessToken, workflow.id, document.id)).toMatchObject({ listed: false, detail: 404 });

    // The mailbox owner presses "Confirm my address" (the page's POST): the address is verified.
    expect((await t.request('POST', '/auth/v1/verify-email', { body: { code } })).status).toBe(200);
    const [row] = await t.platform.db.select().from(users).where(eq(users.id, attacker.userId));
    expect(row.emailVerifiedAt).not.toBeNull();

    const after = await reach(t, session.accessToken, workflow.id, document.id);
    expect(after).toMatchObject({
      listed: true,
      detail: 200,
      document: 200,
      recipients: 200,
      history: 200,
      download: 200,
    });
    expect(after.counts).toMatchObject({ sentDocCount: 1, pendingDocCount: 1 });
    const signed = await sign();
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  });

  test('an unverified account does not see workflows addressed to it after sign-up either', async ({
    app: t,
    owner,
  }) => {
    const account = await signUp(t, { name: 'Fresh Account' });
    const session = await signIn(t, account.email, account.password);
    const { workflow, document } = await draftForSending(t, owner, {
      recipients: [{ name: 'Fresh Account', email: account.email }],
    });
    expect((await commence(t, owner, workflow.id)).status).toBe(200);
    const before = await reach(t, session.accessToken, workflow.id, document.id);
    expect(before).toMatchObject({ listed: false, detail: 404, history: 404, download: 404 });

    const res = await t.request('POST', '/auth/v1/verify-email', {
      body: { code: await verificationCodeFor(t, account.email) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ verified: true });
    expect(await reach(t, session.accessToken, workflow.id, document.id)).toMatchObject({
      listed: true,
      detail: 200,
      history: 200,
    });
  });

  test('the new account works at once for its own workflows; sending them to others waits for the verified address', async ({
    app: t,
  }) => {
    const account = await signUp(t, { name: 'Own Work' });
    const session = await signIn(t, account.email, account.password);
    const asOwner: TestUser = { ...account, token: session.accessToken };
    const { workflow, document } = await draftForSending(t, asOwner, { recipients: [{ name: 'Someone Else' }] });
    const own = await reach(t, session.accessToken, workflow.id, document.id);
    expect(own).toMatchObject({ listed: true, detail: 200, document: 200, recipients: 200, history: 200 });
    // RUNTIME.md round three: sending to others needs a verified address (test/security/unverified-sender.test.ts).
    const refused = await commence(t, asOwner, workflow.id);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('EMAIL_NOT_VERIFIED');
    await t.request('POST', '/auth/v1/verify-email', { body: { code: await verificationCodeFor(t, account.email) } });
    expect((await commence(t, asOwner, workflow.id)).status).toBe(200);
  });
});

describe('verification links', () => {
  test('the sign-up mail carries $PUBLIC_URL/verify-email/<code> in its text part, through the platform mail', async ({
    app: t,
  }) => {
    const account = await signUp(t, { name: 'Mail Reader' });
    const mails = await t.mails({ to: account.email, kind: 'EMAIL_VERIFICATION' });
    expect(mails).toHaveLength(1);
    expect(mails[0].organizationId).toBeNull();
    expect(verificationCode(t, mails[0].textBody)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the digest is stored.
    const [row] = await t.platform.db.select().from(users).where(eq(users.id, account.userId));
    expect(row.emailVerifiedAt).toBeNull();
    expect(row.emailVerificationHash).not.toContain(verificationCode(t, mails[0].textBody));
  });

  test('JSON clients get {verified: true}; opening the link again answers the same', async ({ app: t }) => {
    const account = await signUp(t, { name: 'Json Client' });
    const code = await verificationCodeFor(t, account.email);
    for (let i = 0; i < 2; i++) {
      const res = await t.request('GET', `/verify-email/${code}`, { headers: { accept: 'application/json' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ verified: true });
    }
  });

  test('garbage, unknown and expired codes answer 400 LINK_EXPIRED (HTML page for browsers) and verify nothing', async ({
    app: t,
  }) => {
    const account = await signUp(t, { name: 'Slow Clicker' });
    const code = await verificationCodeFor(t, account.email);
    await t.platform.db
      .update(users)
      .set({ emailVerificationExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, account.userId));
    for (const bad of [code, 'garbage', 'A'.repeat(43), `${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}`]) {
      const json = await t.request('POST', '/auth/v1/verify-email', { body: { code: bad } });
      expect(json.status).toBe(400);
      expect(json.body.message).toBe('LINK_EXPIRED');
      const get = await t.request('GET', `/verify-email/${bad}`);
      expect(get.status).toBe(400);
      expect(get.body.message).toBe('LINK_EXPIRED');
      const html = await t.request('GET', `/verify-email/${bad}`, { headers: { accept: 'text/html' } });
      expect(html.status).toBe(400);
      expect(html.raw).toContain('This link has expired');
    }
    const [row] = await t.platform.db.select().from(users).where(eq(users.id, account.userId));
    expect(row.emailVerifiedAt).toBeNull();
  });

  test('resend mails a new link that replaces the old one, at most 5 a day, and nothing once verified', async ({
    app: t,
  }) => {
    const account = await signUp(t, { name: 'Lost Mail' });
    const { accessToken } = await signIn(t, account.email, account.password);
    const resend = () => t.request('POST', '/auth/v1/verify-email/resend', { token: accessToken });
    const oldCode = await verificationCodeFor(t, account.email);
    const res = await resend();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ verified: false, mailed: true });
    const newCode = await verificationCodeFor(t, account.email);
    expect(newCode).not.toBe(oldCode);
    expect((await t.request('POST', '/auth/v1/verify-email', { body: { code: oldCode } })).body.message).toBe(
      'LINK_EXPIRED',
    );

    for (let i = 0; i < 4; i++) expect((await resend()).status).toBe(200);
    const throttled = await resend();
    expect(throttled.status).toBe(429);
    expect(throttled.body.message).toBe('VERIFICATION_MAIL_LIMIT_REACHED');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.mails({ to: account.email, kind: 'EMAIL_VERIFICATION' })).toHaveLength(6);

    expect(
      (
        await t.request('POST', '/auth/v1/verify-email', {
          body: { code: await verificationCodeFor(t, account.email) },
        })
      ).status,
    ).toBe(200);
    expect((await resend()).body).toEqual({ verified: true, mailed: false });
  });

  test("one account's code does not verify another account", async ({ app: t }) => {
    const first = await signUp(t, { name: 'First Person' });
    const second = await signUp(t, { name: 'Second Person' });
    expect(
      (await t.request('POST', '/auth/v1/verify-email', { body: { code: await verificationCodeFor(t, first.email) } }))
        .status,
    ).toBe(200);
    const rows = await t.platform.db.select().from(users).where(eq(users.id, second.userId));
    expect(rows[0].emailVerifiedAt).toBeNull();
  });
});
