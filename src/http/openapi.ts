import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

/** OpenAPI 3.1 built from the route schemas: JSON at /docs/json, a readable reference at /docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Signature service API',
        version: '1.0.0',
        description:
          'Envelopes, recipients, fields, signing and sealed documents. Errors use the standard error body (ErrorResponse). Decisions on points the interface leaves open are in docs/README.md.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transformObject: (documentObject) =>
      optionalBodiesNotRequired(
        (documentObject as unknown as { openapiObject: OpenApiDocument }).openapiObject,
      ) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}

type OpenApiDocument = {
  paths?: Record<
    string,
    Record<string, { requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> } }>
  >;
};

/**
 * @fastify/swagger marks every request body required; a body whose members are all optional may be left out (the
 * request is then validated as `{}`: http/validation.ts), and the document says so.
 */
function optionalBodiesNotRequired(document: OpenApiDocument): OpenApiDocument {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const body = operation?.requestBody;
      const schema = body?.content?.['application/json']?.schema as
        | { type?: unknown; required?: unknown[] }
        | undefined;
      if (body && schema?.type === 'object' && !schema.required?.length) body.required = false;
    }
  }
  return document;
}
