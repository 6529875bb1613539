import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../platform/metrics.ts';

/** Every answered request, labelled by its route template (not the raw URL, whose ids would explode the label set). */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requestSeconds.labels(route, request.method, String(reply.statusCode)).observe(reply.elapsedTime / 1000);
  });
}
