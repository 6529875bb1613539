import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
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
          + 'A COMPLETED workflow whose seal has not landed (PENDING or FAILED) answers 400 INVALID_WORKFLOW_STATUS for its documents.',
        params: DownloadParams,
        querystring: DownloadQuery,
        produces: ['application/pdf', 'application/zip'],
        response: { 200: FileResponse, ...errorResponses },
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
