import {
  Type,
  type Static,
  type TBoolean,
  type TInteger,
  type TNumber,
  type TSchema,
  type TString,
  type TUnsafe,
} from 'typebox';

/** The standard error body, for OpenAPI. */
export const ErrorResponse = Type.Object(
  {
    httpStatusCode: Type.Integer(),
    success: Type.Literal(false),
    message: Type.String({ description: 'Error identifier, e.g. INVALID_WORKFLOW_STATUS' }),
    errorCode: Type.Integer({ description: 'Numeric code from the error table' }),
    errorDescription: Type.String({ description: 'Human-readable description' }),
    responseBody: Type.Optional(Type.Unknown()),
    requestId: Type.Optional(
      Type.String({
        description: "The request's id, as in the X-Request-Id header: quote it when reporting a problem",
      }),
    ),
  },
  { $id: 'ErrorResponse', description: 'Standard error body; members that would be null are omitted.' },
);

/** Responses every authenticated route can give, for the OpenAPI document. */
export const errorResponses = {
  400: Type.Ref('ErrorResponse'),
  401: Type.Ref('ErrorResponse'),
  403: Type.Ref('ErrorResponse'),
  404: Type.Ref('ErrorResponse'),
} as const;

/**
 * A response value that may be null, as a JSON Schema type list (`["string", "null"]`, OpenAPI 3.1) rather than
 * `anyOf`: Fastify's serializer picks an `anyOf` branch by running the validator on the value (for a date-time, three
 * regular expressions per value), a type list by `typeof`. On the member list, 10.8% of the service's CPU went to
 * checking the formats of invitedAt and joinedAt. For response fields of one scalar type; requests keep `anyOf`.
 */
export function Nullable<T extends TString | TInteger | TNumber | TBoolean>(
  schema: T,
  options: { description?: string } = {},
): TUnsafe<Static<T> | null> {
  return Type.Unsafe<Static<T> | null>({ ...schema, ...options, type: [schema.type, 'null'] });
}

export const IdParam = Type.Integer({ minimum: 1, maximum: 2147483647 });

/** Zero-based pagination (SPEC.md conventions). */
export const PageQuery = Type.Object({
  page: Type.Integer({ minimum: 0, default: 0, description: 'zero-based page number' }),
  size: Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: 'page size' }),
});
export type PageQuery = Static<typeof PageQuery>;

export function Page<T extends TSchema>(item: T) {
  return Type.Object({ content: Type.Array(item), totalElements: Type.Integer() });
}

export function toPage<T>(content: T[], totalElements: number): { content: T[]; totalElements: number } {
  return { content, totalElements };
}

export function pageOffset(query: { page: number; size: number }): { limit: number; offset: number } {
  return { limit: query.size, offset: query.page * query.size };
}

/** A NumberedPage's value: `content`, the list's `total`, and where the page sits in it. */
export function toNumberedPage<T>(content: T[], total: number, query: { page: number; size: number }) {
  return {
    content,
    totalElements: total,
    totalPages: Math.ceil(total / query.size),
    number: query.page,
    size: query.size,
  };
}

/** One page of a paged list that also says where it is: the items, the totals, this page's number and size. */
export function NumberedPage<T extends TSchema>(item: T) {
  return Type.Object({
    content: Type.Array(item),
    totalElements: Type.Integer(),
    totalPages: Type.Integer(),
    number: Type.Integer({ description: "this page's zero-based number" }),
    size: Type.Integer({ description: 'the page size asked for' }),
  });
}
