import { Type, type TSchema } from '@sinclair/typebox';

/**
 * Shared building blocks. Request schemas (exports ending in Body, Query or Params) are compiled into
 * standalone AJV validators at build time by scripts/compile-schemas.ts; the rest describe responses
 * for the OpenAPI document.
 */
/** A string enum as plain `{type: 'string', enum}` (what OpenAPI clients expect), typed as the union. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

export const Ulid = Type.String({ pattern: '^[0-9A-HJKMNP-TV-Z]{26}$', description: 'ULID identifier', examples: ['01JD3Y4Z9V6Q8K2M5N7P0R1S3T'] });
export const Email = Type.String({ format: 'email', maxLength: 254, description: 'E-mail address (stored lower-cased)' });
export const Password = Type.String({ minLength: 10, maxLength: 256, description: 'At least 10 characters' });
export const Name = Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' });
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC timestamp' });

/** `?limit=&cursor=` of every list: limit 1–100, default 25; cursor is opaque. */
export const pageQueryProperties = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Page size (1–100, default 25)' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Opaque cursor from page.nextCursor' })),
};
export const PageQuery = Type.Object(pageQueryProperties, { additionalProperties: false });

/** The version a client read, sent back on a PATCH (or as If-Match): a stale one is refused. */
export const ExpectedVersion = Type.Integer({ minimum: 1, description: 'Optimistic concurrency: the version you read (or send If-Match)' });

export const EmptyBody = Type.Object({}, { additionalProperties: false, description: 'An empty JSON object (may be omitted)' });

export const ErrorResponse = Type.Object({ error: Type.String() }, { $id: 'Error' });
export const ValidationErrorResponse = Type.Object(
  {
    error: Type.String(),
    details: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
        description: 'Validation failures: one entry per field (absent for malformed JSON)',
      }),
    ),
  },
  { $id: 'ValidationError' },
);

export const Success = <T extends TSchema>(data: T) => Type.Object({ message: Type.String(), data });
export const Page = Type.Object({ limit: Type.Integer(), nextCursor: Type.Union([Type.String(), Type.Null()]) });
export const ListOf = <T extends TSchema>(item: T) => Type.Object({ message: Type.String(), data: Type.Array(item), page: Page });
