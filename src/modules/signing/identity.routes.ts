import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { IdentityService } from './identity.service.ts';
import { OTP_RULES } from './identity.service.ts';
import {
  SendOtpResponse,
  VerifyOtpBody,
  VerifyOtpResponse,
  VerifyPasswordBody,
  VerifyPasswordResponse,
  WorkflowIdParams,
} from './identity.schemas.ts';

const CALLER =
  'Caller: the recipient, with its signing-link (guest) token or its own user token; the row must be one that may act now ' +
  '(workflow SENT, its turn, not finished, not CC: else 400 INVALID_WORKFLOW_STATUS or OPERATION_IS_NOT_ALLOWED) and have enforceIdentity ' +
  '(else 400 OPERATION_IS_NOT_ALLOWED). Workflows the caller cannot see: 404.';

export function identityRoutes(identity: IdentityService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/workflow/v1/:workflowId/identity/verify-password',
      {
        schema: {
          tags: ['Sending and signing'],
          summary: 'Enter the recipient password (the first step when the row has one)',
          description:
            'Caller: the recipient, with its signing-link (guest) token or its own user token (the owner is never asked), in any workflow status. ' +
            "While the caller's row has a recipientPassword not yet entered in this session, every other call on the workflow (reads included, and the " +
            'one-time code step, which comes after this one) answers 403 IDENTITY_NOT_VERIFIED "Identity not verified" with responseBody.requiredStep ' +
            'RECIPIENT_PASSWORD. The pass belongs to the session: every token refreshed from it keeps it, but a new session (the link redeemed again, ' +
            'a forwarded link, a new sign-in) must enter the password again. Right: 200 {verified: true}. Wrong: 400 INVALID_REQUEST_BODY with ' +
            'responseBody.attemptsLeft; wrong passwords count per recipient row like sign-in failures, and after 10 within 15 minutes every try, the ' +
            'right password included, answers 401 ACCOUNT_TEMPORARILY_LOCKED with a Retry-After header until 15 minutes after the last failure. ' +
            'A row without a password, or a caller without a row: 400 OPERATION_IS_NOT_ALLOWED. Workflows the caller cannot see: 404.',
          params: WorkflowIdParams,
          body: VerifyPasswordBody,
          response: { 200: VerifyPasswordResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) =>
        identity.verifyRecipientPassword(callerOf(request), request.params.workflowId, request.body.password),
    );

    app.post(
      '/workflow/v1/:workflowId/identity/send-otp',
      {
        schema: {
          tags: ['Sending and signing'],
          summary: 'Mail a one-time code to the recipient (identity step-up)',
          description:
            `${CALLER} No body. Mails a ${OTP_RULES.digits}-digit code (mail kind OTP) valid ${OTP_RULES.lifetimeMinutes} minutes for ${OTP_RULES.maxAttempts} attempts; ` +
            `it replaces any earlier code. Another code within ${OTP_RULES.resendSeconds} seconds: 429 OTP_RESEND_TOO_SOON (16008) with responseBody.resendAfterSeconds and Retry-After. ` +
            `At most ${OTP_RULES.sendsPerDay} codes per recipient in 24 hours, and none while the recipient has entered ${OTP_RULES.failuresPerHour} wrong codes within the hour: ` +
            '429 OTP_LIMIT_REACHED (16010) with a Retry-After header and responseBody {limit: CODES_PER_DAY or WRONG_CODES_PER_HOUR, retryAfterSeconds}.',
          params: WorkflowIdParams,
          response: { 200: SendOtpResponse, ...errorResponses, 429: Type.Ref('ErrorResponse') },
        },
        config: { auth: 'participant' },
      },
      async (request) => {
        const sent = await identity.sendOtp(callerOf(request), request.params.workflowId);
        return { expiresAt: sent.expiresAt.toISOString(), resendAfterSeconds: sent.resendAfterSeconds };
      },
    );

    app.post(
      '/workflow/v1/:workflowId/identity/verify-otp',
      {
        schema: {
          tags: ['Sending and signing'],
          summary: 'Verify the one-time code',
          description:
            `${CALLER} Right code: 200 {verified: true}; the recipient may then sign, approve and decline (before: 403 IDENTITY_NOT_VERIFIED). ` +
            `Wrong, expired (after ${OTP_RULES.lifetimeMinutes} minutes), already used, or none requested: 400 OTP_INVALID with responseBody.attemptsLeft. ` +
            `After ${OTP_RULES.maxAttempts} wrong tries the code is dead: request a new one. A new code does not reset the recipient's budget of ` +
            `${OTP_RULES.failuresPerHour} wrong codes per hour (across codes; attemptsLeft counts the smaller of the two): once used up, every verification, ` +
            'the right code included, answers 429 OTP_LIMIT_REACHED (16010) with Retry-After until an hour after the last wrong code.',
          params: WorkflowIdParams,
          body: VerifyOtpBody,
          response: { 200: VerifyOtpResponse, ...errorResponses, 429: Type.Ref('ErrorResponse') },
        },
        config: { auth: 'participant' },
      },
      async (request) => identity.verifyOtp(callerOf(request), request.params.workflowId, request.body.code),
    );
  };
}
