import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { attemptEvents, identityChallenges } from '../../src/platform/db/schema/index.ts';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import {
  ageChallenge,
  commence,
  draftForSending,
  guestFromMail,
  otpFromMail,
  type RecipientRow,
} from '../helpers/signing.ts';

/** A sent UNORDERED workflow whose signer has enforceIdentity, and that signer's guest token from the mail. */
async function flaggedSigner(
  t: TestApp,
  owner: TestUser,
): Promise<{ workflowId: number; signer: RecipientRow; token: string; plain: RecipientRow; plainToken: string }> {
  const { workflow, rows } = await draftForSending(t, owner, {
    recipients: [{ name: 'Ivy Identity', enforceIdentity: true }, { name: 'Pam Plain' }],
  });
  expect((await commence(t, owner, workflow.id)).status).toBe(200);
  const { token } = await guestFromMail(t, rows[0].email);
  const { token: plainToken } = await guestFromMail(t, rows[1].email);
  return { workflowId: workflow.id, signer: rows[0], token, plain: rows[1], plainToken };
}

const sendOtp = (t: TestApp, workflowId: number, token: string) =>
  t.request('POST', `/workflow/v1/${workflowId}/identity/send-otp`, { token });
const verifyOtp = (t: TestApp, workflowId: number, token: string, code: unknown) =>
  t.request('POST', `/workflow/v1/${workflowId}/identity/verify-otp`, { token, body: { code } });
const decline = (t: TestApp, workflowId: number, token: string) =>
  t.request('POST', `/workflow/v1/${workflowId}/decline`, { token, body: { reason: 'Changed my mind' } });

async function latestOtp(t: TestApp, email: string): Promise<string> {
  const mails = await t.mails({ to: email, kind: 'OTP' });
  expect(mails.length).toBeGreaterThan(0);
  return otpFromMail(mails.at(-1)!);
}

function wrong(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

describe('identity step-up', () => {
  test('gates acting behind a mailed 6-digit code, stored only as a salted hash', async ({ app: t, owner }) => {
    const { workflowId, signer, token } = await flaggedSigner(t, owner);
    const blocked = await decline(t, workflowId, token);
    expect(blocked.status).toBe(403);
    expect(blocked.body.message).toBe('IDENTITY_NOT_VERIFIED');

    const sent = await sendOtp(t, workflowId, token);
    expect(sent.status, sent.raw).toBe(200);
    expect(sent.body.resendAfterSeconds).toBe(30);
    const expiresIn = new Date(sent.body.expiresAt).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(9 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(10 * 60_000);

    const mails = await t.mails({ to: signer.email, kind: 'OTP' });
    expect(mails).toHaveLength(1);
    const code = otpFromMail(mails[0]);
    expect(code).toMatch(/^\d{6}$/);

    const [challenge] = await t.platform.db
      .select()
      .from(identityChallenges)
      .where(eq(identityChallenges.recipientId, signer.id));
    expect(challenge.codeHash).not.toContain(code);
    expect(challenge.codeHash).toMatch(/^v1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);

    const verified = await verifyOtp(t, workflowId, token, code);
    expect(verified.status, verified.raw).toBe(200);
    expect(verified.body).toEqual({ verified: true });
    // Used once: the same code does not verify again.
    expect((await verifyOtp(t, workflowId, token, code)).body.message).toBe('OTP_INVALID');
    expect((await decline(t, workflowId, token)).status).toBe(200);
  });

  test('accepts the code as a number, left-padded', async ({ app: t, owner }) => {
    const { workflowId, signer, token } = await flaggedSigner(t, owner);
    expect((await sendOtp(t, workflowId, token)).status).toBe(200);
    const code = await latestOtp(t, signer.email);
    const res = await verifyOtp(t, workflowId, token, Number(code));
    expect(res.status, res.raw).toBe(200);
  });

  test('throttles resends for 30 seconds with 429 OTP_RESEND_TOO_SOON (16008)', async ({ app: t, owner }) => {
    const { workflowId, signer, token } = await flaggedSigner(t, owner);
    expect((await sendOtp(t, workflowId, token)).status).toBe(200);
    const again = await sendOtp(t, workflowId, token);
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ httpStatusCode: 429, message: 'OTP_RESEND_TOO_SOON', errorCode: 16008 });
    expect(again.body.responseBody.resendAfterSeconds).toBeGreaterThan(0);
    expect(again.body.responseBody.resendAfterSeconds).toBeLessThanOrEqual(30);
    expect(await t.mails({ to: signer.email, kind: 'OTP' })).toHaveLength(1);

    const first = await latestOtp(t, signer.email);
    await ageChallenge(t, signer.id, { sentAt: new Date(Date.now() - 31_000) });
    expect((await sendOtp(t, workflowId, token)).status).toBe(200);
    expect(await t.mails({ to: signer.email, kind: 'OTP' })).toHaveLength(2);
    const second = await latestOtp(t, signer.email);
    // The new code replaces the old one.
    if (first !== second) expect((await verifyOtp(t, workflowId, token, first)).status).toBe(400);
    expect((await verifyOtp(t, workflowId, token, second)).status).toBe(200);
  });

  test('kills the code after 5 wrong attempts, even for the right code, until a new one is sent', async ({
    app: t,
    owner,
  }) => {
    const { workflowId, signer, token } = await flaggedSigner(t, owner);
    expect((await sendOtp(t, workflowId, token)).status).toBe(200);
    const code = await latestOtp(t, signer.email);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const res = await verifyOtp(t, workflowId, token, attempt === 3 ? 'abc' : wrong(code));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('OTP_INVALID');
      expect(res.body.responseBody.attemptsLeft).toBe(5 - attempt);
    }
    // Five wrong codes also use up the recipient's hourly budget (test/signing/otp-limits.test.ts), which answers first.
    const dead = await verifyOtp(t, workflowId, token, code);
    expect(dead.status).toBe(429);
    expect(dead.body.message).toBe('OTP_LIMIT_REACHED');
    expect((await decline(t, workflowId, token)).status).toBe(403);

    await ageChallenge(t, signer.id, { sentAt: new Date(Date.now() - 31_000) });
    await t.platform.db
      .update(attemptEvents)
      .set({ occurredAt: new Date(Date.now() - 61 * 60_000) })
      .where(eq(attemptEvents.subject, String(signer.id)));
    expect((await sendOtp(t, workflowId, token)).status).toBe(200);
    expect((await verifyOtp(t, workflowId, token, await latestOtp(t, signer.email))).status).toBe(200);
  });

  test('refuses an expired code with OTP_INVALID', async ({ app: t, owner }) => {
    const { workflowId, signer, token } = await flaggedSigner(t, owner);
    expect((await sendOtp(t, workflowId, token)).status).toBe(200);
    const code = await latestOtp(t, signer.email);
    await ageChallenge(t, signer.id, {
      sentAt: new Date(Date.now() - 11 * 60_000),
      expiresAt: new Date(Date.now() - 60_000),
    });
    const res = await verifyOtp(t, workflowId, token, code);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('OTP_INVALID');
    expect(res.body.errorDescription).toContain('expired');
  });

  test('refuses verification without a code requested, for unflagged recipients, other workflows and outsiders', async ({
    app: t,
    owner,
  }) => {
    const { workflowId, token, plainToken } = await flaggedSigner(t, owner);
    expect((await verifyOtp(t, workflowId, token, '123456')).body.message).toBe('OTP_INVALID');
    const unflagged = await sendOtp(t, workflowId, plainToken);
    expect(unflagged.status).toBe(400);
    expect(unflagged.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    const other = await flaggedSigner(t, owner);
    expect((await sendOtp(t, other.workflowId, token)).status).toBe(404);
    const outsider = await createUser(t, { name: 'Otto Outsider' });
    expect((await sendOtp(t, workflowId, outsider.token)).status).toBe(404);
    // The owner holds no row: nothing to verify.
    expect((await sendOtp(t, workflowId, owner.token)).body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    const malformed = await t.request('POST', `/workflow/v1/${workflowId}/identity/verify-otp`, { token, body: {} });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('BAD_REQUEST_BODY');
  });

  test('accepts send-otp with an empty JSON body', async ({ app: t, owner }) => {
    const { workflowId, token } = await flaggedSigner(t, owner);
    const res = await t.request('POST', `/workflow/v1/${workflowId}/identity/send-otp`, {
      token,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status, res.raw).toBe(200);
  });
});
