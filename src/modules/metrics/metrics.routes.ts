import crypto from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import type { Metrics } from '../../platform/metrics.ts';

/**
 * GET /metrics in Prometheus text format. It is `public` to the caller-resolution hook (Prometheus sends no
 * user token) but answers only to `Authorization: Bearer <METRICS_TOKEN>`; without a configured token it is off (404).
 */
export function metricsRoutes(deps: {
  metrics: Metrics;
  token: string | undefined;
  refreshQueueDepth: () => Promise<void>;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/metrics',
      {
        schema: {
          tags: ['Operations'],
          summary: 'Prometheus metrics',
          description:
            'Prometheus text format: http_request_duration_seconds (by route template, method, status), http_requests_in_flight, ' +
            'job_queue_depth (by queue and state, read when scraped), job_latency_seconds (due to done, by queue and outcome), mail_deliveries_total ' +
            'and seals_total (by outcome), and the process_* / nodejs_* defaults (CPU, memory, event-loop lag). ' +
            'Needs `Authorization: Bearer <METRICS_TOKEN>`; without METRICS_TOKEN configured the endpoint does not exist (404). Wrong or missing token: 401.',
          response: { 200: Type.String(), 401: Type.Ref('ErrorResponse'), 404: Type.Ref('ErrorResponse') },
        },
        config: { auth: 'public' },
      },
      async (request, reply) => {
        if (!deps.token)
          throw new AppError('ROUTE_NOT_FOUND', 'No endpoint GET /metrics (METRICS_TOKEN is not configured)');
        const given = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
        if (!sameSecret(given, deps.token)) throw new AppError('UNAUTHORIZED', 'The metrics token is missing or wrong');
        await deps.refreshQueueDepth();
        reply.type(deps.metrics.registry.contentType);
        return deps.metrics.registry.metrics();
      },
    );
  };
}

function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}
