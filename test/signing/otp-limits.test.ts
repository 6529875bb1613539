import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { attemptEvents } from '../../src/platform/db/schema/index.ts';
import {
  OTP_FAILURES_PER_RECIPIENT,
  OTP_SENDS_PER_RECIPIENT,
  type AttemptRule,
} from '../../src/platform/limits/attempts.ts';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import {
  ageChallenge,
  commence,
  draftForSending,
  guestFromMail,
  otpFromMail,
  type RecipientRow,
} from '../helpers/signing.ts';

/**
 * Issue 7 item 5: the identity step-up budget spans codes. A resend must not buy fresh guesses (5 wrong codes
 * per recipient per hour), and no more than 10 codes are mailed per recipient per day.
 */

async function flaggedSigner(
  t: TestApp,
  owner: TestUser,
): Promise<{ workflowId: number; signer: RecipientRow; token: string }> {
  const { workflow, rows } = await draftForSending(t, owner, {
    recipients: [{ name: 'Ivy Identity', enforceIdentity: true }],
  });
  expect((await commence(t, owner, workflow.id)).status).toBe(200);
  const { token } = await guestFromMail(t, rows[0].email);
  return { workflowId: workflow.id, signer: rows[0], token };
}

const sendOtp = (t: TestApp, workflowId: number, token: string) =>
  t.request('POST', `/workflow/v1/${workflowId}/identity/send-otp`, { token });
const verifyOtp = (t: TestApp, workflowId: number, token: string, code: unknown) =>
  t.request('POST', `/workflow/v1/${workflowId}/identity/verify-otp`, { token, body: { code } });
const decline = (t: TestApp, workflowId: number, token: string) =>
  t.request('POST', `/workflow/v1/${workflowId}/decline`, { token, body: { reason: 'Changed my mind' } });

async function latestOtp(t: TestApp, email: string): Promise<string> {
  const mails = await t.mails({ to: email, kind: 'OTP' });
  return otpFromMail(mails.at(-1)!);
}

function wrong(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

/** Lets the 30-second resend throttle pass without waiting. */
async function pastThrottle(t: TestApp, signer: RecipientRow) {
  await ageChallenge(t, signer.id, { sentAt: new Date(Date.now() - 31_000) });
}

/** Moves the recipient's counted events of `rule` back in time (time control for the hour and day windows). */
async function ageEvents(t: TestApp, rule: AttemptRule, signer: RecipientRow, byMs: number) {
  await t.platform.db
    .update(attemptEvents)
    .set({ occurredAt: new Date(Date.now() - byMs) })
    .where(and(eq(attemptEvents.scope, rule.scope), eq(attemptEvents.subject, String(signer.id))));
}

describe('one-time code limits across codes', () => {
  test('keeps counting wrong codes across a resend: the sixth guess of the hour is refused, the right code too', async ({
    app: t,
    owner,
  }) => {
    const { workflowId, signer, token } = await flaggedSigner(t, owner);
    expect((await sendOtp(t, workflowId, token)).status).toBe(200);
    const first = await latestOtp(t, signer.email);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const res = await verifyOtp(t, workflowId, token, wrong(first));
      expect(res.body.responseBody.attemptsLeft).toBe(5 - attempt);
    }

    await pastThrottle(t, signer);
    expect((await sendOtp(t, workflowId, token)).status).toBe(200);
    const second = await latestOtp(t, signer.email);
    // The new code has 5 tries of its own, but only 2 wrong codes are left in the hour.
    const fourth = await verifyOtp(t, workflowId, token, wrong(second));
    expect(fourth.status).toBe(400);
    expect(fourth.body).toMatchObject({ message: 'OTP_INVALID', responseBody: { attemptsLeft: 1 } });
    const fifth = await verifyOtp(t, workflowId, token, wrong(second));
    expect(fifth.body).toMatchObject({ message: 'OTP_INVALID', responseBody: { attemptsLeft: 0 } });

    const right = await verifyOtp(t, workflowId, token, second);
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({
      message: 'OTP_LIMIT_REACHED',
      errorCode: 16010,
      responseBody: { limit: 'WRONG_CODES_PER_HOUR', attemptsLeft: 0 },
    });
    const retryAfter = Number(right.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(right.body.responseBody.retryAfterSeconds).toBe(retryAfter);

    // A third code is not mailed while the hour's budget is spent: it could not be verified anyway.
    await pastThrottle(t, signer);
    const resend = await sendOtp(t, workflowId, token);
    expect(resend.status).toBe(429);
    expect(resend.body).toMatchObject({
      message: 'OTP_LIMIT_REACHED',
      responseBody: { limit: 'WRONG_CODES_PER_HOUR' },
    });
    expect(Number(resend.headers['retry-after'])).toBeGreaterThan(3500);
    expect(await t.mails({ to: signer.email, kind: 'OTP' })).toHaveLength(2);
    expect((await decline(t, workflowId, token)).status).toBe(403);

    // An hour after the last wrong code the recipient may try again.
    await ageEvents(t, OTP_FAILURES_PER_RECIPIENT, signer, 60 * 60_000 + 1000);
    expect((await sendOtp(t, workflowId, token)).status).toBe(200);
    const verified = await verifyOtp(t, workflowId, token, await latestOtp(t, signer.email));
    expect(verified.status, verified.raw).toBe(200);
    expect((await decline(t, workflowId, token)).status).toBe(200);
  });

  test('mails at most 10 codes per recipient per day', async ({ app: t, owner }) => {
    const { workflowId, signer, token } = await flaggedSigner(t, owner);
    for (let sent = 1; sent <= 10; sent++) {
      const res = await sendOtp(t, workflowId, token);
      expect(res.status, `code ${sent}: ${res.raw}`).toBe(200);
      await pastThrottle(t, signer);
    }
    const eleventh = await sendOtp(t, workflowId, token);
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toMatchObject({
      message: 'OTP_LIMIT_REACHED',
      errorCode: 16010,
      responseBody: { limit: 'CODES_PER_DAY' },
    });
    const retryAfter = Number(eleventh.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(await t.mails({ to: signer.email, kind: 'OTP' })).toHaveLength(10);

    // The last code mailed still verifies: the day cap limits mail, not verification.
    const verified = await verifyOtp(t, workflowId, token, await latestOtp(t, signer.email));
    expect(verified.status, verified.raw).toBe(200);

    await ageEvents(t, OTP_SENDS_PER_RECIPIENT, signer, 24 * 60 * 60_000 + 1000);
    expect((await sendOtp(t, workflowId, token)).status).toBe(200);
  });

  test('counts per recipient: another recipient keeps its own budget', async ({ app: t, owner }) => {
    const a = await flaggedSigner(t, owner);
    const b = await flaggedSigner(t, owner);
    expect((await sendOtp(t, a.workflowId, a.token)).status).toBe(200);
    const code = await latestOtp(t, a.signer.email);
    for (let attempt = 1; attempt <= 5; attempt++) await verifyOtp(t, a.workflowId, a.token, wrong(code));
    expect((await verifyOtp(t, a.workflowId, a.token, code)).body.message).toBe('OTP_LIMIT_REACHED');

    expect((await sendOtp(t, b.workflowId, b.token)).status).toBe(200);
    expect((await verifyOtp(t, b.workflowId, b.token, await latestOtp(t, b.signer.email))).status).toBe(200);
  });
});
