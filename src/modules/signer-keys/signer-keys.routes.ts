import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import { RESET_CODE_RULES, SIGNING_PASSWORD_MIN_LENGTH, type SignerKeyService } from './signer-keys.service.ts';
import { ResetBody, ResetCodeResponse, SigningKeyStatusResponse, WorkflowIdParams } from './signer-keys.schemas.ts';

const WHO =
  'A recipient of the workflow (signing-link token or own user token; anyone else 404, a caller without a recipient row 400 ' +
  'OPERATION_IS_NOT_ALLOWED). A key is created, opened or replaced only for an address the platform verified: a registered user whose address is ' +
  "verified, with their own token, or a signing link the platform's own mail delivered (otherwise 403 EMAIL_NOT_VERIFIED); a business app's " +
  'token never (403 USER_NOT_HAVE_ACCESS).';

export function signerKeyRoutes(keys: SignerKeyService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/workflow/v1/:workflowId/signing-key',
      {
        schema: {
          tags: ['Signing'],
          summary: "The caller's local signing certificate, for the signing page",
          description:
            'A recipient of the workflow (signing-link token or own user token; anyone else 404, a caller without a recipient row 400 ' +
            'OPERATION_IS_NOT_ALLOWED) learns whether its row signs with a personal certificate (useDigitalCert), whether the platform may certify its ' +
            'address for this caller (certifiable), and whether its person (email) already has a signing key, so the page asks either to create a ' +
            'signing password (with confirmation), to enter it, or to confirm the address first. Reveals nothing of the key itself.',
          params: WorkflowIdParams,
          response: { 200: SigningKeyStatusResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) => ({
        ...(await keys.status(callerOf(request), request.params.workflowId)),
        minPasswordLength: SIGNING_PASSWORD_MIN_LENGTH,
      }),
    );

    app.post(
      '/workflow/v1/:workflowId/signing-key/reset-code',
      {
        schema: {
          tags: ['Signing'],
          summary: 'Mail a code for a new signing key (locked or forgotten signing password)',
          description:
            `${WHO} No body. For a row with useDigitalCert whose person has a key (else 400 OPERATION_IS_NOT_ALLOWED): mails a ` +
            `${RESET_CODE_RULES.digits}-digit code (mail kind SIGNING_KEY_RESET) through the platform's own mail to the key's address, valid ` +
            `${RESET_CODE_RULES.lifetimeMinutes} minutes for ${RESET_CODE_RULES.maxAttempts} tries; it replaces any earlier code. Another within ` +
            `${RESET_CODE_RULES.resendSeconds} seconds: 429 OTP_RESEND_TOO_SOON with Retry-After; at most 10 codes a day per key, and none while 5 wrong ` +
            'codes of the last hour stand: 429 OTP_LIMIT_REACHED with Retry-After.',
          params: WorkflowIdParams,
          response: { 200: ResetCodeResponse, ...errorResponses, 429: Type.Ref('ErrorResponse') },
        },
        config: { auth: 'participant' },
      },
      async (request) => {
        const sent = await keys.sendResetCode(callerOf(request), request.params.workflowId);
        return { expiresAt: sent.expiresAt.toISOString(), resendAfterSeconds: sent.resendAfterSeconds };
      },
    );

    app.post(
      '/workflow/v1/:workflowId/signing-key/reset',
      {
        schema: {
          tags: ['Signing'],
          summary: 'Replace the signing key with the mailed code and a new signing password',
          description:
            `${WHO} The code from signing-key/reset-code and a new signing password (at least ${SIGNING_PASSWORD_MIN_LENGTH} characters, else 400 ` +
            "SIGNING_PASSWORD_TOO_SHORT) replace the person's key with a new one and a new certificate from the platform CA; the wrong-password lock " +
            'is lifted. Signatures made with the old key stay valid (its certificate is not revoked). A wrong, used or expired code: 400 OTP_INVALID ' +
            '(counted: 5 tries a code, 5 wrong codes an hour, then 429 OTP_LIMIT_REACHED with Retry-After). Answers the new signing-key status.',
          params: WorkflowIdParams,
          body: ResetBody,
          response: { 200: SigningKeyStatusResponse, ...errorResponses, 429: Type.Ref('ErrorResponse') },
        },
        config: { auth: 'participant' },
      },
      async (request) => ({
        ...(await keys.reset(callerOf(request), request.params.workflowId, request.body)),
        minPasswordLength: SIGNING_PASSWORD_MIN_LENGTH,
      }),
    );
  };
}
