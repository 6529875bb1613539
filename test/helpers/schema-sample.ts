/** Requests built from the routes' own schemas (the route tables of test/http and test/security). */

/**
 * A small valid instance of a JSON schema: required members (and members named in `known`, with that value),
 * the first alternative, the least allowed size; a pattern gets the first candidate it accepts.
 */
export function sample(schema: any, known: Record<string, unknown>): unknown {
  if (schema.content) return sample(schema.content['application/json'].schema, known);
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf ?? schema.oneOf) return sample((schema.anyOf ?? schema.oneOf)[0], known);
  switch (schema.type) {
    case 'object': {
      const keys = Object.keys(schema.properties ?? {}).filter((key) => schema.required?.includes(key) || key in known);
      return Object.fromEntries(
        keys.map((key) => [key, key in known ? known[key] : sample(schema.properties[key], known)]),
      );
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items, known));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'email') return 'someone@example.com';
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.format === 'date') return '2026-01-01';
      if (schema.format === 'uri') return 'https://example.com/';
      if (schema.pattern)
        return ['#1A56DB', 'Abc', '1'].find((candidate) => new RegExp(schema.pattern).test(candidate));
      return 'Abc'.padEnd(schema.minLength ?? 3, 'c');
    case 'null':
      return null;
    default:
      return {};
  }
}
