import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { multipartBody, uploadFile } from '../helpers/documents.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { createMailOwner } from '../mail-settings/helpers.ts';
import {
  CHALLENGES_PER_ADDRESS,
  DOCUMENT_UPLOADS_PER_ACCOUNT,
  MAIL_SETTINGS_TESTS,
  VERIFICATION_MAILS_PER_ACCOUNT,
  VERIFY_PER_ADDRESS,
  recordAttempts,
  type AttemptRule,
} from '../../src/platform/limits/attempts.ts';

/*
 * RUNTIME.md "Limits and status codes": every "too many" limit answers 429 with Retry-After; 503 means only that something
 * the service depends on is unavailable. Each limit is used up here by recording its window's events (as the calls
 * themselves would), then called once more over HTTP. The one-time-code caps: test/signing/otp-limits.test.ts.
 */
let t: TestApp;
let owner: TestUser;
let unverified: TestUser;
let mailOwner: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Ula Uploader' });
  unverified = await createUser(t, { name: 'Vic Unverified', emailVerified: false });
  mailOwner = await createMailOwner(t);
});
afterAll(async () => {
  await t?.close();
});

const useUp = (rule: AttemptRule, subject: string) =>
  recordAttempts(
    t.platform.db,
    Array.from({ length: rule.max }, () => [rule, subject] as [AttemptRule, string]),
  );

describe('every "too many" limit answers 429 with Retry-After', () => {
  it.each([
    [
      'uploads per account',
      'UPLOAD_RATE_LIMITED',
      12020,
      async () => {
        await useUp(DOCUMENT_UPLOADS_PER_ACCOUNT, String(owner.userId));
        return uploadFile(t, owner.token, 'one.pdf', await makePdf(1));
      },
    ],
    [
      'verifications per address',
      'VERIFY_RATE_LIMITED',
      12021,
      async () => {
        await useUp(VERIFY_PER_ADDRESS, '127.0.0.1');
        const { body, contentType } = multipartBody([
          { name: 'file', filename: 'a.pdf', contentType: 'application/pdf', data: await makePdf(1) },
        ]);
        return t.request('POST', '/verify/v1', { body, headers: { 'content-type': contentType } });
      },
    ],
    [
      'sign-in challenges per address',
      'CHALLENGE_RATE_LIMITED',
      14209,
      async () => {
        await useUp(CHALLENGES_PER_ADDRESS, '127.0.0.1');
        return t.request('POST', `/auth/webauthn/login/options?username=${encodeURIComponent(owner.email)}`);
      },
    ],
    [
      'verification mails per account',
      'VERIFICATION_MAIL_LIMIT_REACHED',
      14012,
      async () => {
        await useUp(VERIFICATION_MAILS_PER_ACCOUNT, String(unverified.userId));
        return t.request('POST', '/auth/v1/verify-email/resend', { token: unverified.token });
      },
    ],
    [
      'email-settings tests per organization',
      'MAIL_SETTINGS_TEST_LIMITED',
      18004,
      async () => {
        await useUp(MAIL_SETTINGS_TESTS, String(mailOwner.organizationId));
        return t.request('POST', '/organization/v1/email-settings/test', {
          token: mailOwner.token,
          body: {
            provider: 'SMTP',
            configurations: { EMAIL_FROM: 'x@acme.example' },
            testRecipient: 'ann@example.com',
          },
        });
      },
    ],
  ] as const)('%s: 429 %s', async (_name, message, errorCode, call) => {
    const res = await call();
    expect(res.status, res.raw).toBe(429);
    expect(res.body).toMatchObject({ success: false, httpStatusCode: 429, message, errorCode });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('the OpenAPI document lists 429 for those routes', async () => {
    const doc = (await t.request('GET', '/docs/json')).body;
    for (const [path, method] of [
      ['/document/v1', 'post'],
      ['/document/v1/{docId}', 'put'],
      ['/verify/v1', 'post'],
      ['/auth/webauthn/login/options', 'post'],
      ['/auth/v1/smart_card/hash', 'post'],
      ['/auth/v1/verify-email/resend', 'post'],
      ['/organization/v1/email-settings/test', 'post'],
      ['/workflow/v1/{workflowId}/identity/send-otp', 'post'],
      ['/workflow/v1/{workflowId}/identity/verify-otp', 'post'],
      ['/workflow/v1/{workflowId}/signing-key/reset-code', 'post'],
      ['/workflow/v1/{workflowId}/signing-key/reset', 'post'],
    ]) {
      expect(doc.paths[path]?.[method]?.responses?.['429'], `${method} ${path}`).toBeDefined();
    }
  });
});
