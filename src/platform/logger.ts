import { pino, type Logger } from 'pino';
import type { LogLevel } from '../config.ts';

export type { Logger };

/** The `(message, error?)` shape most services take: a line, at error level when it carries an error. */
export type Log = (message: string, error?: unknown) => void;

/** The service's one logger (LOG_LEVEL), shared by Fastify (request lines carry reqId), the job workers and every module. */
export function createLogger(level: LogLevel): Logger {
  return pino({ level });
}

export function logTo(logger: Logger): Log {
  return (message, error) => {
    if (error === undefined) logger.info(message);
    else logger.error({ err: error }, message);
  };
}
