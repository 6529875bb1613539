import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { multipartError } from '../../http/multipart.ts';
import { VerifyForm, VerifyResponse } from './verify.schemas.ts';
import type { VerifyService } from './verify.service.ts';

const DESCRIPTION =
  'Public. Send a PDF as multipart/form-data in the part "file" (at most 25 MB). Answers every filled signature field: ' +
  'whether the signed bytes are unchanged and match the signing certificate (integrity), the signer, the claimed time, the trusted time of ' +
  "an RFC 3161 time-stamp, whether the signature covers the whole file, and whether its certificate chains to this service's platform CA. " +
  '`platformRecord` is set when the file is byte for byte a document this service sealed. Nothing is stored. ' +
  'A signature whose byte range does not start the file, leave out exactly its own /Contents, end where its revision ends (%%EOF), ' +
  'or share its revision with another signature is INVALID without being hashed. ' +
  'Not a PDF: 400 INVALID_DOCUMENT_TYPE; unreadable, or costing more than 0.75 s of processor time or 256 MB to verify: 400 INVALID_PDF ' +
  '(responseBody.cpuLimitMs or memoryLimitMb); more than 50 signatures: 400 TOO_MANY_SIGNATURES (responseBody.limit, nothing checked); ' +
  'over 25 MB or empty: 400 INVALID_DOCUMENT_SIZE; more than 30 requests a minute from one address: 429 VERIFY_RATE_LIMITED with ' +
  'Retry-After; too many verifications waiting, or one waiting more than 10 s for the processor (the server is busy, not the caller): ' +
  '503 SERVICE_UNAVAILABLE with Retry-After.';

export function verifyRoutes(verifier: VerifyService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/verify/v1',
      {
        schema: {
          tags: ['Verification'],
          summary: 'Verify the signatures of a PDF',
          description: DESCRIPTION,
          consumes: ['multipart/form-data'],
          body: VerifyForm,
          response: {
            200: VerifyResponse,
            400: Type.Ref('ErrorResponse'),
            429: Type.Ref('ErrorResponse'),
            503: Type.Ref('ErrorResponse'),
          },
        } as never,
        config: { auth: 'public' },
      },
      async (request) => {
        if (!request.isMultipart())
          throw new AppError('BAD_REQUEST_BODY', 'Send the PDF as multipart/form-data in the part "file"');
        await verifier.assertUnderLimit(request.ip);
        try {
          for await (const part of request.parts()) {
            if (part.type !== 'file') continue;
            if (part.fieldname !== 'file') {
              part.file.resume();
              throw new AppError(
                'BAD_REQUEST_BODY',
                `Unexpected file in the part "${part.fieldname}"; send the PDF in the part "file"`,
              );
            }
            const answer = await verifier.verify(part.file, () => part.file.truncated);
            // Drain the rest of the form so the connection can be reused.
            for await (const rest of request.parts()) if (rest.type === 'file') rest.file.resume();
            return answer;
          }
        } catch (error) {
          throw multipartError(error);
        }
        throw new AppError('BAD_REQUEST_BODY', 'The part "file" is missing');
      },
    );
  };
}
