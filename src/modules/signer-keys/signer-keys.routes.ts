import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import { SIGNING_PASSWORD_MIN_LENGTH, type SignerKeyService } from './signer-keys.service.ts';
import { SigningKeyStatusResponse, WorkflowIdParams } from './signer-keys.schemas.ts';

export function signerKeyRoutes(keys: SignerKeyService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/workflow/v1/:workflowId/signing-key', {
      schema: {
        tags: ['Signing'],
        summary: 'The caller\'s local signing certificate, for the signing page',
        description: 'A recipient of the workflow (signing-link token or own user token; anyone else 404, a caller without a recipient row 400 '
          + 'OPERATION_IS_NOT_ALLOWED) learns whether its row signs with a personal certificate (useDigitalCert) and whether its person (email) '
          + 'already has a signing key, so the page asks either to create a signing password (with confirmation) or to enter it. Reveals '
          + 'nothing of the key itself.',
        params: WorkflowIdParams,
        response: { 200: SigningKeyStatusResponse, ...errorResponses },
      },
      config: { auth: 'participant' },
    }, async (request) => ({ ...(await keys.status(callerOf(request), request.params.workflowId)), minPasswordLength: SIGNING_PASSWORD_MIN_LENGTH }));
  };
}
