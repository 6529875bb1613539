import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../platform/metrics.ts';

const counted = new WeakSet<object>();

/**
 * Every answered request, labelled by its route template (not the raw URL, whose ids would explode the label set),
 * and the requests in flight (counted down once, whether the request was answered or aborted).
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRequest', async (request) => {
    counted.add(request);
    metrics.requestsInFlight.inc();
  });
  const done = (request: object) => {
    if (counted.delete(request)) metrics.requestsInFlight.dec();
  };
  app.addHook('onRequestAbort', async (request) => { done(request); });
  app.addHook('onResponse', async (request, reply) => {
    done(request);
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requestSeconds.labels(route, request.method, String(reply.statusCode)).observe(reply.elapsedTime / 1000);
  });
}
