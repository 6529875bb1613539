import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Query strings, path parameters and headers arrive as text, so they are coerced to the schema's types.
 * JSON bodies are not: a number where a string belongs is a malformed body (SPEC.md: 400), not something
 * to convert silently.
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
}
