import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../platform/metrics.ts';

const counted = new WeakSet<object>();

/**
 * Every answered request, labelled by its route template (not the raw URL, whose ids would explode the label set),
 * and the requests in flight (counted down once, whether the request was answered or aborted).
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  const done = (request: object) => {
    if (counted.delete(request)) metrics.requestsInFlight.dec();
  };
  app.addHook('onRequest', async (request, reply) => {
    counted.add(request);
    metrics.requestsInFlight.inc();
    // An answer whose socket closed before its last write was seen to complete gets neither onResponse nor
    // onRequestAbort ("stream closed prematurely"), only 'close'.
    reply.raw.once('close', () => done(request));
  });
  app.addHook('onRequestAbort', async (request) => {
    done(request);
  });
  app.addHook('onResponse', async (request, reply) => {
    done(request);
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requestSeconds.labels(route, request.method, String(reply.statusCode)).observe(reply.elapsedTime / 1000);
  });
}
