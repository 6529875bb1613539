import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler, RouteOptions } from 'fastify';

/**
 * Query strings, path parameters and headers arrive as text, so they are coerced to the schema's types.
 * JSON bodies are not: a number where a string belongs is a malformed body (SPEC.md: 400), not something
 * to convert silently.
 *
 * A missing body is not a malformed one where nothing in it is required (RUNTIME.md "Request shapes"): a route whose
 * body schema is an object with no required member validates a request without a body as `{}`, and an empty body sent
 * with Content-Type application/json counts as no body on every route (send-otp, reset-code and the other routes
 * without a body take it; a route that requires members still answers 400 BAD_REQUEST_BODY "body must be object").
 */
export function registerValidation(app: FastifyInstance, schemas: object[]): void {
  const base = { allErrors: false, useDefaults: true, removeAdditional: true as const, strict: false };
  const coercing = new Ajv({ ...base, coerceTypes: 'array' });
  const strict = new Ajv({ ...base, coerceTypes: false });
  for (const ajv of [coercing, strict]) {
    (addFormats as unknown as (a: Ajv) => void)(ajv);
    for (const schema of schemas) ajv.addSchema(schema);
  }
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    return ajv.compile(schema);
  });

  // Fastify's own JSON parser, with the app's poisoning rules, except that an empty body is no body.
  const json = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  );
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    return json(request, body as string, done);
  });

  // Only the routes the rule is about get the hook: every other request pays nothing for it.
  app.addHook('onRoute', (route) => {
    if (isAllOptionalObject(route.schema?.body))
      route.preValidation = [...hooksOf(route.preValidation), missingBodyAsEmptyObject];
  });
}

/** An object schema (TypeBox Type.Object) none of whose members is required. */
export function isAllOptionalObject(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const { type, required } = schema as { type?: unknown; required?: unknown };
  return type === 'object' && (!Array.isArray(required) || required.length === 0);
}

async function missingBodyAsEmptyObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined) request.body = {};
}

function hooksOf(hooks: RouteOptions['preValidation']): preValidationAsyncHookHandler[] {
  if (!hooks) return [];
  return (Array.isArray(hooks) ? hooks : [hooks]) as preValidationAsyncHookHandler[];
}
