import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { attemptEvents } from '../../src/platform/db/schema/index.ts';
import { RECIPIENT_PASSWORD_FAILURES } from '../../src/platform/limits/attempts.ts';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, type TestUser } from '../helpers/factories.ts';
import { signIn } from '../helpers/auth.ts';
import { addRecipients, recipientEntry } from '../helpers/recipients.ts';
import { commence, guestFromMail, linkFromMail, otpFromMail, redeem } from '../helpers/signing.ts';
import { pngDataUrl } from '../helpers/ceremony.ts';

/**
 * Issue 7 item 6 / RUNTIME.md "The signing ceremony": a row's recipientPassword is asked for before anything
 * else of the workflow, per session, and wrong passwords are counted like sign-in failures for that row.
 */

const PASSWORD = 'correct horse battery';

/** A sent workflow whose first signer has a recipient password (set through the recipients endpoint) and whose second has none. */
async function protectedEnvelope(
  t: TestApp,
  owner: TestUser,
  options: { enforceIdentity?: boolean; email?: string } = {},
) {
  const { workflow, document } = await createDraftWorkflow(t, owner, { sequence: 'UNORDERED' });
  const [guarded, open] = await addRecipients(t, owner.token, workflow.id, [
    recipientEntry({
      name: 'Gina Guarded',
      recipientPassword: PASSWORD,
      enforceIdentity: options.enforceIdentity ?? false,
      ...(options.email ? { emailAddress: options.email } : {}),
    }),
    recipientEntry({ name: 'Otto Open' }),
  ]);
  const signature = await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: guarded.id,
    fieldType: 'SIGNATURE',
    fieldRequired: true,
  });
  await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: open.id,
    fieldType: 'SIGNATURE',
    box: { x: 72, y: 200, width: 150, height: 40 },
  });
  expect((await commence(t, owner, workflow.id)).status).toBe(200);
  return { workflowId: workflow.id, documentId: document.id, guarded, open, signatureId: signature.id };
}

const verifyPassword = (t: TestApp, workflowId: number, token: string, password: unknown) =>
  t.request('POST', `/workflow/v1/${workflowId}/identity/verify-password`, { token, body: { password } });
const listRecipients = (t: TestApp, workflowId: number, token: string) =>
  t.request('GET', `/workflow/v1/${workflowId}/recipients`, { token });

function expectGate(res: { status: number; body: any }) {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body).toMatchObject({
    message: 'IDENTITY_NOT_VERIFIED',
    errorDescription: 'Identity not verified',
    responseBody: { requiredStep: 'RECIPIENT_PASSWORD' },
  });
}

describe('recipient password', () => {
  test('lets the signing-link token do nothing of the workflow until the password is entered', async ({
    app: t,
    owner,
  }) => {
    const env = await protectedEnvelope(t, owner);
    const { token } = await guestFromMail(t, env.guarded.emailAddress);

    expectGate(await listRecipients(t, env.workflowId, token));
    expectGate(await t.request('GET', `/workflow/v1/${env.workflowId}/history`, { token }));
    expectGate(await t.request('GET', `/workflow/v1/${env.workflowId}/fields`, { token }));
    expectGate(await t.request('GET', `/document/v1/download/${env.workflowId}?selectedOption=downloadAll`, { token }));
    expectGate(
      await t.request('POST', `/workflow/v1/${env.workflowId}/sign`, {
        token,
        body: { id: env.signatureId, image: pngDataUrl() },
      }),
    );
    expectGate(
      await t.request('POST', `/workflow/v1/${env.workflowId}/decline`, { token, body: { reason: 'Not me' } }),
    );

    const wrong = await verifyPassword(t, env.workflowId, token, 'correct horse battery ');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: 'INVALID_REQUEST_BODY', responseBody: { attemptsLeft: 9 } });
    expectGate(await listRecipients(t, env.workflowId, token));

    const right = await verifyPassword(t, env.workflowId, token, PASSWORD);
    expect(right.status, right.raw).toBe(200);
    expect(right.body).toEqual({ verified: true });
    expect((await listRecipients(t, env.workflowId, token)).status).toBe(200);
    const signed = await t.request('POST', `/workflow/v1/${env.workflowId}/sign`, {
      token,
      body: { id: env.signatureId, image: pngDataUrl() },
    });
    expect(signed.status, signed.raw).toBe(200);
    expect(signed.body.recipientStatus).toBe('SIGNED');
  });

  test('holds for the session (refreshed tokens) but not for a new redemption of the link, such as a forwarded one', async ({
    app: t,
    owner,
  }) => {
    const env = await protectedEnvelope(t, owner);
    const { token, code, session } = await guestFromMail(t, env.guarded.emailAddress);
    expect((await verifyPassword(t, env.workflowId, token, PASSWORD)).status).toBe(200);

    const refreshed = await t.request('POST', '/auth/v1/signin', {
      body: { grant_type: 'REFRESH_TOKEN', refreshToken: session.refreshToken },
    });
    expect(refreshed.status, refreshed.raw).toBe(200);
    expect((await listRecipients(t, env.workflowId, refreshed.body.accessToken)).status).toBe(200);

    const forwarded = await redeem(t, code);
    expect(forwarded.status).toBe(200);
    expectGate(await listRecipients(t, env.workflowId, forwarded.body.accessToken));
    expect((await verifyPassword(t, env.workflowId, forwarded.body.accessToken, PASSWORD)).status).toBe(200);
    expect((await listRecipients(t, env.workflowId, forwarded.body.accessToken)).status).toBe(200);
  });

  test('locks the row after 10 wrong passwords, the right one included, with Retry-After, across sessions', async ({
    app: t,
    owner,
  }) => {
    const env = await protectedEnvelope(t, owner);
    const { token, code } = await guestFromMail(t, env.guarded.emailAddress);
    for (let attempt = 1; attempt <= 10; attempt++) {
      const res = await verifyPassword(t, env.workflowId, token, `guess ${attempt}`);
      expect(res.status).toBe(400);
      expect(res.body.responseBody.attemptsLeft).toBe(10 - attempt);
    }
    const locked = await verifyPassword(t, env.workflowId, token, PASSWORD);
    expect(locked.status).toBe(401);
    expect(locked.body.message).toBe('ACCOUNT_TEMPORARILY_LOCKED');
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // Counted for the row, not the session: a fresh redemption is locked too.
    const other = (await redeem(t, code)).body.accessToken;
    expect((await verifyPassword(t, env.workflowId, other, PASSWORD)).status).toBe(401);
    expectGate(await listRecipients(t, env.workflowId, token));
    // The other recipient of the workflow is not concerned.
    const { token: openToken } = await guestFromMail(t, env.open.emailAddress);
    expect((await listRecipients(t, env.workflowId, openToken)).status).toBe(200);

    await t.platform.db
      .update(attemptEvents)
      .set({ occurredAt: new Date(Date.now() - 16 * 60_000) })
      .where(
        and(
          eq(attemptEvents.scope, RECIPIENT_PASSWORD_FAILURES.scope),
          eq(attemptEvents.subject, String(env.guarded.id)),
        ),
      );
    expect((await verifyPassword(t, env.workflowId, token, PASSWORD)).status).toBe(200);
  });

  test('comes before the one-time code: the code step is refused until the password is entered', async ({
    app: t,
    owner,
  }) => {
    const env = await protectedEnvelope(t, owner, { enforceIdentity: true });
    const { token } = await guestFromMail(t, env.guarded.emailAddress);
    expectGate(await t.request('POST', `/workflow/v1/${env.workflowId}/identity/send-otp`, { token }));
    expect(await t.mails({ to: env.guarded.emailAddress, kind: 'OTP' })).toHaveLength(0);

    expect((await verifyPassword(t, env.workflowId, token, PASSWORD)).status).toBe(200);
    // Past the password, the code step still gates acting.
    const early = await t.request('POST', `/workflow/v1/${env.workflowId}/sign`, {
      token,
      body: { id: env.signatureId, image: pngDataUrl() },
    });
    expect(early.status).toBe(403);
    expect(early.body.responseBody?.requiredStep).toBeUndefined();
    expect((await t.request('POST', `/workflow/v1/${env.workflowId}/identity/send-otp`, { token })).status).toBe(200);
    const [mail] = await t.mails({ to: env.guarded.emailAddress, kind: 'OTP' });
    expect(
      (
        await t.request('POST', `/workflow/v1/${env.workflowId}/identity/verify-otp`, {
          token,
          body: { code: otpFromMail(mail) },
        })
      ).status,
    ).toBe(200);
    const signed = await t.request('POST', `/workflow/v1/${env.workflowId}/sign`, {
      token,
      body: { id: env.signatureId, image: pngDataUrl() },
    });
    expect(signed.status, signed.raw).toBe(200);
  });

  test('asks a registered recipient using its own account too, per sign-in; never the owner', async ({
    app: t,
    owner,
  }) => {
    const member = await createUser(t, { name: 'Rita Registered' });
    const env = await protectedEnvelope(t, owner, { email: member.email });
    expectGate(await listRecipients(t, env.workflowId, member.token));
    expectGate(await t.request('GET', `/workflow/v1/${env.workflowId}/history`, { token: member.token }));
    expect((await verifyPassword(t, env.workflowId, member.token, 'not it')).status).toBe(400);
    expect((await verifyPassword(t, env.workflowId, member.token, PASSWORD)).status).toBe(200);
    expect((await listRecipients(t, env.workflowId, member.token)).status).toBe(200);
    expect((await t.request('GET', `/workflow/v1/${env.workflowId}/history`, { token: member.token })).status).toBe(
      200,
    );

    // A new sign-in is a new session: the password is asked again.
    const session = await signIn(t, member.email, member.password);
    expectGate(await listRecipients(t, env.workflowId, session.accessToken));

    expect((await listRecipients(t, env.workflowId, owner.token)).status).toBe(200);
    expect((await t.request('GET', `/workflow/v1/${env.workflowId}/history`, { token: owner.token })).status).toBe(200);
  });

  test('refuses verify-password for a row without a password and for the owner without a row', async ({
    app: t,
    owner,
  }) => {
    const env = await protectedEnvelope(t, owner);
    const { token: openToken } = await guestFromMail(t, env.open.emailAddress);
    const noPassword = await verifyPassword(t, env.workflowId, openToken, 'anything');
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    expect((await verifyPassword(t, env.workflowId, owner.token, PASSWORD)).body.message).toBe(
      'OPERATION_IS_NOT_ALLOWED',
    );
    const outsider = await createUser(t, { name: 'Otto Outsider' });
    expect((await verifyPassword(t, env.workflowId, outsider.token, PASSWORD)).status).toBe(404);
    const { token } = await guestFromMail(t, env.guarded.emailAddress);
    const malformed = await t.request('POST', `/workflow/v1/${env.workflowId}/identity/verify-password`, {
      token,
      body: {},
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('BAD_REQUEST_BODY');
  });

  test('is not carried to a delegate: the new row has no password', async ({ app: t, owner }) => {
    const env = await protectedEnvelope(t, owner);
    const { token } = await guestFromMail(t, env.guarded.emailAddress);
    expect((await verifyPassword(t, env.workflowId, token, PASSWORD)).status).toBe(200);
    const delegateEmail = `dora-${Date.now()}@example.com`;
    const delegated = await t.request('POST', `/workflow/v1/${env.workflowId}/recipients/${env.guarded.id}/delegate`, {
      token,
      body: { name: 'Dora Delegate', emailAddress: delegateEmail },
    });
    expect(delegated.status, delegated.raw).toBe(200);
    const mails = await t.mails({ to: delegateEmail, kind: 'COMMENCE' });
    const delegateToken = (await redeem(t, linkFromMail(t, mails.at(-1)!).code)).body.accessToken;
    expect((await listRecipients(t, env.workflowId, delegateToken)).status).toBe(200);
  });
});
