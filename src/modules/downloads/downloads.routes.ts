import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { DownloadService } from './downloads.service.ts';
import {
  DownloadParams,
  DownloadQuery,
  FileResponse,
  PageImageQuery,
  contentDisposition,
} from './downloads.schemas.ts';

export function downloadRoutes(downloads: DownloadService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/document/v1/download/:workflowId',
      {
        schema: {
          tags: ['Documents'],
          summary: 'Download a document, every document as a zip, or the certificate of completion',
          description:
            'Owner or recipient of the workflow (a signing-link token too, also after its recipient finished); a DRAFT only for its owner (404 otherwise). ' +
            'downloadDocument needs documentId (400 without it, 404 when it is not a document of this workflow) and answers the sealed PDF once sealed, else the uploaded source. ' +
            'downloadAll answers a zip of every document; once COMPLETED the sealed documents plus the certificate of completion, before that the source documents only. ' +
            'downloadCoc answers the certificate of completion (itself sealed), only once COMPLETED (400 INVALID_WORKFLOW_STATUS before). ' +
            'The seal is applied on the transition to COMPLETED: asked for while it is still pending (sealStatus PENDING, usually a few ms after the completing call), ' +
            "every option waits for it (downloadDocument only until that document's sealed file is stored, a few ms before the workflow reads SEALED), " +
            'up to SEAL_WAIT_SECONDS (default 20 s), then answers 503 SERVICE_UNAVAILABLE with Retry-After; ' +
            'so a client that reads COMPLETED and downloads at once gets the sealed files. ' +
            'When sealing failed after every retry (sealStatus FAILED) downloadDocument and downloadAll answer 500 SEAL_FAILED (errorCode 13004, responseBody.detail the reason); ' +
            'downloadCoc still answers the certificate, which records the failure.',
          params: DownloadParams,
          querystring: DownloadQuery,
          produces: ['application/pdf', 'application/zip'],
          response: {
            200: FileResponse,
            ...errorResponses,
            500: Type.Ref('ErrorResponse'),
            503: Type.Ref('ErrorResponse'),
          },
        },
        config: { auth: 'participant' },
      },
      async (request, reply) => {
        const { selectedOption, documentId } = request.query;
        const file = await downloads.download(callerOf(request), request.params.workflowId, selectedOption, documentId);
        reply
          .type(file.contentType)
          .header('content-disposition', contentDisposition(file.filename))
          .header('x-content-type-options', 'nosniff');
        if ('stream' in file) return reply.header('content-length', file.size).send(file.stream);
        return reply.send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
      },
    );

    app.get(
      '/document/v1/page-image/:workflowId',
      {
        schema: {
          tags: ['Documents'],
          summary: 'A picture (JPEG) of one page of a document, as downloadDocument would answer it',
          description:
            'Same callers as download (owner or recipient, a signing-link token too; a DRAFT only for its owner, 404 otherwise). ' +
            'The page as downloadDocument shows it (the sealed file once sealed), drawn on white at the asked width rounded up to a multiple of 200 ' +
            "(at most 2000; X-Image-Width says which; X-Page-Width and X-Page-Height give the page in points, the space of its fields' boxes). Without documentId, the workflow's first document (X-Document-Id says which). " +
            'Page 1 of an uploaded file is drawn 800 pixels wide on the first ask, stored, and answered from storage for any width up to 800. ' +
            'The signing page shows it while its PDF engine loads. 404 when documentId is not a document of this workflow ' +
            'or the page does not exist; 503 SERVICE_UNAVAILABLE with Retry-After when too many pages are being drawn. Answers an ETag (If-None-Match: 304).',
          params: DownloadParams,
          querystring: PageImageQuery,
          produces: ['image/jpeg'],
          response: {
            200: Type.String({ description: 'The JPEG' }),
            304: Type.Null({ description: 'Not modified' }),
            ...errorResponses,
            503: Type.Ref('ErrorResponse'),
          },
        },
        config: { auth: 'participant' },
      },
      async (request, reply) => {
        const { documentId, page = 1, width = 800 } = request.query;
        const ifNoneMatch = request.headers['if-none-match'];
        const picture = await downloads.pageImage(
          callerOf(request),
          request.params.workflowId,
          documentId,
          page,
          width,
          typeof ifNoneMatch === 'string' ? ifNoneMatch : undefined,
        );
        // Private: it shows the document. Revalidated on every use (cheap: a 304 draws nothing).
        reply
          .header('cache-control', 'private, no-cache')
          .header('etag', picture.etag)
          .header('x-document-id', picture.documentId)
          .header('x-page-width', picture.pageSize.width)
          .header('x-page-height', picture.pageSize.height);
        if ('notModified' in picture) return reply.code(304).send(null);
        return reply
          .type('image/jpeg')
          .header('x-image-width', picture.width)
          .header('x-content-type-options', 'nosniff')
          .send(Buffer.from(picture.jpeg.buffer, picture.jpeg.byteOffset, picture.jpeg.byteLength));
      },
    );
  };
}
