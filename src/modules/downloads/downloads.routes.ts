import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { DownloadService } from './downloads.service.ts';
import { DownloadParams, DownloadQuery, FileResponse, contentDisposition } from './downloads.schemas.ts';

export function downloadRoutes(downloads: DownloadService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/document/v1/download/:workflowId', {
      schema: {
        tags: ['Documents'],
        summary: 'Download a document, every document as a zip, or the certificate of completion',
        description: 'Owner or recipient of the workflow (a signing-link token too, also after its recipient finished); a DRAFT only for its owner (404 otherwise). '
          + 'downloadDocument needs documentId (400 without it, 404 when it is not a document of this workflow) and answers the sealed PDF once sealed, else the uploaded source. '
          + 'downloadAll answers a zip of every document; once COMPLETED the sealed documents plus the certificate of completion, before that the source documents only. '
          + 'downloadCoc answers the certificate of completion (itself sealed), only once COMPLETED (400 INVALID_WORKFLOW_STATUS before). '
          + 'The seal is applied on the transition to COMPLETED: asked for while it is still pending (sealStatus PENDING, usually a few ms after the completing call), '
          + 'every option waits for it, up to SEAL_WAIT_SECONDS (default 20 s), then answers 503 SERVICE_UNAVAILABLE with Retry-After; '
          + 'so a client that reads COMPLETED and downloads at once gets the sealed files. '
          + 'When sealing failed after every retry (sealStatus FAILED) downloadDocument and downloadAll answer 500 SEAL_FAILED (errorCode 13004, responseBody.detail the reason); '
          + 'downloadCoc still answers the certificate, which records the failure.',
        params: DownloadParams,
        querystring: DownloadQuery,
        produces: ['application/pdf', 'application/zip'],
        response: { 200: FileResponse, ...errorResponses, 500: Type.Ref('ErrorResponse'), 503: Type.Ref('ErrorResponse') },
      },
      config: { auth: 'participant' },
    }, async (request, reply) => {
      const { selectedOption, documentId } = request.query;
      const file = await downloads.download(callerOf(request), request.params.workflowId, selectedOption, documentId);
      return reply
        .type(file.contentType)
        .header('content-disposition', contentDisposition(file.filename))
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
    });
  };
}
