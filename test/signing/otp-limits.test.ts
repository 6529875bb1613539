import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptEvents } from '../../src/platform/db/schema/index.ts';
import { OTP_FAILURES_PER_RECIPIENT, OTP_SENDS_PER_RECIPIENT, type AttemptRule } from '../../src/platform/limits/attempts.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { ageChallenge, commence, draftForSending, guestFromMail, otpFromMail, type RecipientRow } from '../helpers/signing.ts';

/**
 * Issue 7 item 5: the identity step-up budget spans codes. A resend must not buy fresh guesses (5 wrong codes
 * per recipient per hour), and no more than 10 codes are mailed per recipient per day.
 */
let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olivia Owner' });
});
afterAll(async () => { await t?.close(); });

async function flaggedSigner(): Promise<{ workflowId: number; signer: RecipientRow; token: string }> {
  const { workflow, rows } = await draftForSending(t, owner, { recipients: [{ name: 'Ivy Identity', enforceIdentity: true }] });
  expect((await commence(t, owner, workflow.id)).status).toBe(200);
  const { token } = await guestFromMail(t, rows[0].email);
  return { workflowId: workflow.id, signer: rows[0], token };
}

const sendOtp = (workflowId: number, token: string) => t.request('POST', `/workflow/v1/${workflowId}/identity/send-otp`, { token });
const verifyOtp = (workflowId: number, token: string, code: unknown) => t.request('POST', `/workflow/v1/${workflowId}/identity/verify-otp`, { token, body: { code } });
const decline = (workflowId: number, token: string) => t.request('POST', `/workflow/v1/${workflowId}/decline`, { token, body: { reason: 'Changed my mind' } });

async function latestOtp(email: string): Promise<string> {
  const mails = await t.mails({ to: email, kind: 'OTP' });
  return otpFromMail(mails.at(-1)!);
}

function wrong(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

/** Lets the 30-second resend throttle pass without waiting. */
async function pastThrottle(signer: RecipientRow) {
  await ageChallenge(t, signer.id, { sentAt: new Date(Date.now() - 31_000) });
}

/** Moves the recipient's counted events of `rule` back in time (time control for the hour and day windows). */
async function ageEvents(rule: AttemptRule, signer: RecipientRow, byMs: number) {
  await t.platform.db.update(attemptEvents).set({ occurredAt: new Date(Date.now() - byMs) })
    .where(and(eq(attemptEvents.scope, rule.scope), eq(attemptEvents.subject, String(signer.id))));
}

describe('one-time code limits across codes', () => {
  it('keeps counting wrong codes across a resend: the sixth guess of the hour is refused, the right code too', async () => {
    const { workflowId, signer, token } = await flaggedSigner();
    expect((await sendOtp(workflowId, token)).status).toBe(200);
    const first = await latestOtp(signer.email);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const res = await verifyOtp(workflowId, token, wrong(first));
      expect(res.body.responseBody.attemptsLeft).toBe(5 - attempt);
    }

    await pastThrottle(signer);
    expect((await sendOtp(workflowId, token)).status).toBe(200);
    const second = await latestOtp(signer.email);
    // The new code has 5 tries of its own, but only 2 wrong codes are left in the hour.
    const fourth = await verifyOtp(workflowId, token, wrong(second));
    expect(fourth.status).toBe(400);
    expect(fourth.body).toMatchObject({ message: 'OTP_INVALID', responseBody: { attemptsLeft: 1 } });
    const fifth = await verifyOtp(workflowId, token, wrong(second));
    expect(fifth.body).toMatchObject({ message: 'OTP_INVALID', responseBody: { attemptsLeft: 0 } });

    const right = await verifyOtp(workflowId, token, second);
    expect(right.status).toBe(400);
    expect(right.body).toMatchObject({ message: 'OTP_LIMIT_REACHED', errorCode: 16010, responseBody: { limit: 'WRONG_CODES_PER_HOUR', attemptsLeft: 0 } });
    const retryAfter = Number(right.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(right.body.responseBody.retryAfterSeconds).toBe(retryAfter);

    // A third code is not mailed while the hour's budget is spent: it could not be verified anyway.
    await pastThrottle(signer);
    const resend = await sendOtp(workflowId, token);
    expect(resend.status).toBe(400);
    expect(resend.body).toMatchObject({ message: 'OTP_LIMIT_REACHED', responseBody: { limit: 'WRONG_CODES_PER_HOUR' } });
    expect(Number(resend.headers['retry-after'])).toBeGreaterThan(3500);
    expect(await t.mails({ to: signer.email, kind: 'OTP' })).toHaveLength(2);
    expect((await decline(workflowId, token)).status).toBe(403);

    // An hour after the last wrong code the recipient may try again.
    await ageEvents(OTP_FAILURES_PER_RECIPIENT, signer, 60 * 60_000 + 1000);
    expect((await sendOtp(workflowId, token)).status).toBe(200);
    const verified = await verifyOtp(workflowId, token, await latestOtp(signer.email));
    expect(verified.status, verified.raw).toBe(200);
    expect((await decline(workflowId, token)).status).toBe(200);
  });

  it('mails at most 10 codes per recipient per day', async () => {
    const { workflowId, signer, token } = await flaggedSigner();
    for (let sent = 1; sent <= 10; sent++) {
      const res = await sendOtp(workflowId, token);
      expect(res.status, `code ${sent}: ${res.raw}`).toBe(200);
      await pastThrottle(signer);
    }
    const eleventh = await sendOtp(workflowId, token);
    expect(eleventh.status).toBe(400);
    expect(eleventh.body).toMatchObject({ message: 'OTP_LIMIT_REACHED', errorCode: 16010, responseBody: { limit: 'CODES_PER_DAY' } });
    const retryAfter = Number(eleventh.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(await t.mails({ to: signer.email, kind: 'OTP' })).toHaveLength(10);

    // The last code mailed still verifies: the day cap limits mail, not verification.
    const verified = await verifyOtp(workflowId, token, await latestOtp(signer.email));
    expect(verified.status, verified.raw).toBe(200);

    await ageEvents(OTP_SENDS_PER_RECIPIENT, signer, 24 * 60 * 60_000 + 1000);
    expect((await sendOtp(workflowId, token)).status).toBe(200);
  });

  it('counts per recipient: another recipient keeps its own budget', async () => {
    const a = await flaggedSigner();
    const b = await flaggedSigner();
    expect((await sendOtp(a.workflowId, a.token)).status).toBe(200);
    const code = await latestOtp(a.signer.email);
    for (let attempt = 1; attempt <= 5; attempt++) await verifyOtp(a.workflowId, a.token, wrong(code));
    expect((await verifyOtp(a.workflowId, a.token, code)).body.message).toBe('OTP_LIMIT_REACHED');

    expect((await sendOtp(b.workflowId, b.token)).status).toBe(200);
    expect((await verifyOtp(b.workflowId, b.token, await latestOtp(b.signer.email))).status).toBe(200);
  });
});
