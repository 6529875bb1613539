import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics, one registry per service instance (tests run several in one process).
 * Adapters and modules are handed the instruments they feed; `/metrics` renders the registry.
 */
export function createMetrics() {
  const registry = new Registry();
  const requestSeconds = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route template, method and status, with their latency',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: 'job_latency_seconds',
    help: 'Time from a job becoming due to its handler finishing, by queue and outcome',
    labelNames: ['queue', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const queueDepth = new Gauge({
    name: 'job_queue_depth',
    help: 'Jobs waiting or running, by queue and state (read from the database when scraped)',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
  });
  const requestsInFlight = new Gauge({
    name: 'http_requests_in_flight',
    help: 'HTTP requests received and not yet answered (what a graceful shutdown waits for)',
    registers: [registry],
  });
  const mails = new Counter({
    name: 'mail_deliveries_total',
    help: 'Mail delivery attempts by outcome (sent, failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const seals = new Counter({
    name: 'seals_total',
    help: 'Seals of completed workflows by outcome (sealed, failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  // The process's own figures (CPU, resident memory, heap, event-loop lag, open handles), standard names.
  collectDefaultMetrics({ register: registry });
  return { registry, requestSeconds, requestsInFlight, jobSeconds, queueDepth, mails, seals };
}

export type Metrics = ReturnType<typeof createMetrics>;
