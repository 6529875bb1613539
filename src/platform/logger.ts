import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config.ts';

export type { Logger };

/** The `(message, error?)` shape most services take: a line, at error level when it carries an error. */
export type Log = (message: string, error?: unknown) => void;

/**
 * The logger of the work in progress: a request's (bound to its `reqId`) or a job attempt's (bound to `job` and
 * `jobId`). Services are handed one `Log` at start and never see the request or job they serve, so their lines
 * find their request or job through here; outside any (start-up, timers) the service's own logger writes them.
 */
const current = new AsyncLocalStorage<LineLogger>();

/** What `logTo` writes through: a pino logger, or Fastify's view of one (a request's `request.log`). */
export type LineLogger = Pick<Logger, 'info' | 'error'>;

/** Runs `work` with `logger` as the current one: every `logTo` line inside carries its bindings. */
export function withLogger<T>(logger: LineLogger, work: () => T): T {
  return current.run(logger, work);
}

/** The service's one logger (LOG_LEVEL), shared by Fastify (request lines carry reqId), the job workers and every module. */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return destination ? pino({ level }, destination) : pino({ level });
}

/** A `Log` that writes through the current request's or job's logger when there is one, else through `logger`. */
export function logTo(logger: Logger): Log {
  return (message, error) => {
    const target = current.getStore() ?? logger;
    if (error === undefined) target.info(message);
    else target.error({ err: error }, message);
  };
}
