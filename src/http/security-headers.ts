import type { FastifyInstance, FastifyReply } from 'fastify';

/** One year, and subdomains: the usual HSTS policy for a service that is only ever reached over https. */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

export type SecurityHeaderOptions = { https: boolean };

/**
 * Headers every answer carries (JSON, HTML, files, errors): `X-Content-Type-Options: nosniff` so a browser never
 * runs an uploaded or generated file as something else than its declared type, `X-Frame-Options: DENY` so no
 * page of the service can be framed for clickjacking, and HSTS when the service is published over https
 * (over plain http the header would be meaningless, and on localhost it would pin the browser to https).
 *
 * No Content-Security-Policy here on purpose: the web app's pages set their own (with frame-ancestors), and a
 * global one would break the Swagger UI under /docs. A route that already chose a frame policy keeps it.
 */
export function applySecurityHeaders(reply: FastifyReply, options: SecurityHeaderOptions): void {
  reply.header('x-content-type-options', 'nosniff');
  if (!reply.hasHeader('x-frame-options')) reply.header('x-frame-options', 'DENY');
  if (options.https) reply.header('strict-transport-security', HSTS_VALUE);
}

/**
 * One onSend hook for every route, the error handler and the not-found handler. Errors the router raises before
 * any route is found skip hooks, so app.ts also calls applySecurityHeaders from its frameworkErrors handler.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    applySecurityHeaders(reply, options);
    return payload;
  });
}
