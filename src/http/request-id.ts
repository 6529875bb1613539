import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { withLogger } from '../platform/logger.ts';

/** An id a proxy in front may hand us; anything else (too long, odd characters that could forge log lines) is replaced. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/**
 * Every request gets an id: the caller's `X-Request-Id` when it is well-formed (so a proxy's id threads through),
 * else a new UUID. It is logged with every line of the request, answered in `X-Request-Id`, and carried in error
 * bodies as `requestId`, so a user's report of an error can be found in the logs.
 */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTED_ID.test(given) ? given : crypto.randomUUID();
}

export function setRequestIdHeader(reply: FastifyReply): void {
  reply.header('x-request-id', reply.request.id);
}

export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (_request, reply) => {
    setRequestIdHeader(reply);
  });
  // The rest of the request (hooks, handler, the services it calls) runs with the request's logger as the current
  // one, so what a service logs through its `Log` carries this reqId. A callback hook: `done` inside run() keeps the
  // context for everything the request does afterwards (the pattern @fastify/request-context uses).
  app.addHook('onRequest', (request, _reply, done) => {
    withLogger(request.log, done);
  });
}
