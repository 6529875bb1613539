import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERRORS, type ErrorCode } from '../errors.ts';
import { setRequestIdHeader } from './request-id.ts';

/**
 * SPEC.md's standard error body. `message` carries the error's identifier (e.g. INVALID_WORKFLOW_STATUS)
 * so clients can branch on it; `errorDescription` is the human sentence. Null members are omitted.
 */
export type ErrorBody = {
  httpStatusCode: number;
  success: false;
  message: string;
  errorCode: number;
  errorDescription: string;
  responseBody?: unknown;
  /** The request's id (also in the X-Request-Id header and every log line of the request). */
  requestId?: string;
};

export function errorBody(error: AppError, requestId?: string): ErrorBody {
  const body: ErrorBody = {
    httpStatusCode: error.status,
    success: false,
    message: error.code,
    errorCode: error.errorCode,
    errorDescription: error.message,
  };
  if (error.responseBody !== undefined && error.responseBody !== null) body.responseBody = error.responseBody;
  if (requestId) body.requestId = requestId;
  return body;
}

const STATUS_TO_CODE: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST_BODY',
  401: 'UNAUTHORIZED',
  403: 'USER_NOT_HAVE_ACCESS',
  404: 'NOT_FOUND',
  406: 'BAD_REQUEST_BODY',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/** Turns anything thrown into an AppError; unknown failures become a generic 500 with nothing internal. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError & { validation?: unknown[]; validationContext?: string };
  if (fastifyError?.validation) {
    const issues = fastifyError.validation.map((issue: any) => ({
      location: fastifyError.validationContext,
      path: issue.instancePath || issue.params?.missingProperty || '',
      message: issue.message,
    }));
    return new AppError(
      'BAD_REQUEST_BODY',
      `Invalid ${fastifyError.validationContext ?? 'request'}: ${fastifyError.message}`,
      issues,
    );
  }
  const status = fastifyError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = STATUS_TO_CODE[status] ?? 'BAD_REQUEST_BODY';
    // Fastify's own 4xx messages (bad JSON, wrong content type, body too large) are safe to show.
    return new AppError(code, fastifyError.message || ERRORS[code].description);
  }
  return new AppError('INTERNAL_ERROR');
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: appError.code, description: appError.message }, 'request rejected');
    if (appError.retryAfterSeconds !== undefined)
      reply.header('retry-after', String(Math.ceil(appError.retryAfterSeconds)));
    return reply.status(appError.status).type('application/json').send(errorBody(appError, request.id));
  });
  app.setNotFoundHandler((request, reply) => {
    const appError = new AppError('ROUTE_NOT_FOUND', `No endpoint ${request.method} ${request.url.split('?')[0]}`);
    return reply.status(404).type('application/json').send(errorBody(appError, request.id));
  });
}

/**
 * Errors the router raises before any route runs (a malformed URL, an over-long path parameter): the same
 * standard body, as a 400.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const appError = new AppError('BAD_REQUEST_BODY', error.message || 'Malformed request');
  setRequestIdHeader(reply);
  reply.status(appError.status).type('application/json').send(errorBody(appError, request.id));
}
