import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../http/schemas.ts';
import { CloudImportQuery } from './cloud-import.schemas.ts';
import type { CloudImportService } from './cloud-import.service.ts';

const DESCRIPTION =
  'Fetches the file a box link points to and answers its bytes (application/octet-stream), for the client to upload ' +
  "with POST /document/v1. The link must be https, on a host of CLOUD_IMPORT_ALLOWED_HOSTS (default: the box provider's hosts; an entry " +
  'without a port allows only 443), with no user name or password; the same holds after each redirect, and every address the host ' +
  'resolves to must be public (private, loopback, link-local and metadata addresses are refused; the connection goes to the address ' +
  'that was checked, so DNS rebinding cannot redirect it). Failing those: 400 CLOUD_IMPORT_LINK_REFUSED. An unreadable link (unreachable, ' +
  'non-2xx, timeout), more than 5 redirects or more than 25 MB: 500 CLOUD_IMPORT_FAILED (the API specification). Nothing is stored.';

export function cloudImportRoutes(imports: CloudImportService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/document/v1/cloud-import/box',
      {
        schema: {
          tags: ['Documents'],
          summary: 'Fetch a file from a box link',
          description: DESCRIPTION,
          querystring: CloudImportQuery,
          response: {
            200: Type.String({ format: 'binary', description: "the file's bytes" }),
            500: Type.Ref('ErrorResponse'),
            ...errorResponses,
          },
        },
        config: { auth: 'user' },
      },
      async (request, reply) => {
        const file = await imports.importFromBox(request.query.link);
        // The staged copy goes once the answer is sent (or the client goes away).
        reply.raw.once('close', () => {
          void file.discard();
        });
        reply.header('content-length', String(file.size)).header('cache-control', 'no-store');
        return reply.type('application/octet-stream').send(file.stream);
      },
    );
  };
}
