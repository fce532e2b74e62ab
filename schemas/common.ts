import { Type, type TSchema } from '@sinclair/typebox';
import { MAX_DAYS_AHEAD_KEYWORD, MAX_DEPTH_KEYWORD, MAX_JSON_DEPTH, MIN_DATE_KEYWORD } from './input-limits.js';

/**
 * Shared building blocks. Request schemas (exports ending in Body, Query or Params) are compiled into
 * standalone AJV validators at build time by scripts/compile-schemas.ts; the rest describe responses
 * for the OpenAPI document.
 */
/** A string enum as plain `{type: 'string', enum}` (what OpenAPI clients expect), typed as the union. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

export const Ulid = Type.String({ pattern: '^[0-9A-HJKMNP-TV-Z]{26}$', description: 'ULID identifier', examples: ['01JD3Y4Z9V6Q8K2M5N7P0R1S3T'] });
/** A ULID path parameter described by what it names (`UlidOf('Id of the flock')`): the same rule as `Ulid`. */
export const UlidOf = (description: string) => Type.String({ pattern: Ulid.pattern, description, examples: Ulid.examples as string[] });
/** The rule of an `Idempotency-Key` header (1–255 visible ASCII characters): checked by the idempotency service, stated in the OpenAPI document. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7e]{1,255}$';
export const Email = Type.String({ format: 'email', maxLength: 254, description: 'E-mail address (stored lower-cased)' });
export const Password = Type.String({ minLength: 10, maxLength: 256, description: 'At least 10 characters' });
export const Name = Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' });
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC timestamp' });

/** The earliest date a person may type (a hatch, a placement, a delivery, a record, a plan): no flock the service keeps is older. */
export const EARLIEST_DATE = '2000-01-01';
/**
 * A calendar date a person types: from `EARLIEST_DATE` to `daysAhead` days after today (a year, unless
 * the field says otherwise: a medicine lot expires years ahead). A date out of these bounds is a typo
 * (1900 for 2000, 2062 for 2026); the error names the bound. Rules of the field itself (not in the
 * future, within its cycle) are the domain's.
 */
export const FarmDate = (description = 'Calendar date YYYY-MM-DD', daysAhead = 366) =>
  Type.String({
    format: 'date',
    [MIN_DATE_KEYWORD]: EARLIEST_DATE,
    [MAX_DAYS_AHEAD_KEYWORD]: daysAhead,
    description: `${description} (${EARLIEST_DATE} to ${daysAhead} days after today)`,
  });

/**
 * The ends of a period a client sends (`from`, `to`): each a calendar date, meaning the farm's day in its
 * time zone, or an ISO 8601 timestamp with its offset. `from`: from the start of that day, or from that
 * instant; `to`: up to the end of that day (the whole day included), or up to that instant (excluded).
 * The one schema of every period of every route; shared/domain/periods.ts is its one resolver.
 */
const periodEnd = (text: string) =>
  Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })], {
    description: `${text}: a date YYYY-MM-DD (the farm’s day, in its time zone) or an ISO 8601 timestamp with its offset`,
  });
export const PeriodFrom = periodEnd('Start of the period, included (a date: from the start of that day)');
export const PeriodTo = periodEnd('End of the period (a date: to the end of that day, the day included; a timestamp: excluded)');
/** `from` and `to`, both optional (an end left out leaves the period open). */
export const periodProperties = { from: Type.Optional(PeriodFrom), to: Type.Optional(PeriodTo) };

/** `?limit=&cursor=` of every list: limit 1–100, default 25; cursor is opaque. */
export const pageQueryProperties = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Page size (1–100, default 25)' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Opaque cursor from page.nextCursor' })),
};
export const PageQuery = Type.Object(pageQueryProperties, { additionalProperties: false });

/** The version a client read, sent back on a PATCH (or as If-Match): a stale one is refused. */
/** An ISO 4217 currency code by its shape; the domain checks it is one (shared/domain/pricing/farm-pricing.ts: isCurrencyCode). */
export const CurrencyCode = (description: string) => Type.String({ pattern: '^[A-Z]{3}$', description, examples: ['GBP'] });
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

/**
 * Any JSON value, for data that is free-form by nature (audit changes, documents). Its static type stays
 * `unknown`: what the services hold there is whatever they recorded, and JSON serialization makes it JSON.
 */
/**
 * Any JSON value. Arrays nest at most three deep: a self-referencing array (`JsonValue[]`) makes the
 * TypeScript that openapi-typescript generates refuse to compile (TS2502), while objects may nest freely.
 * No value the service returns nests arrays deeper.
 */
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const JSON_SCALARS = [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }];
const JsonObject = { $id: 'JsonObject', type: 'object', description: 'A JSON object', additionalProperties: ref('JsonValue') };
const jsonArray = (depth: number): Record<string, unknown> => ({
  $id: depth === 1 ? 'JsonArray' : `JsonArray${depth}`,
  type: 'array',
  description: depth === 1 ? 'A JSON array' : `A JSON array nested ${depth} deep`,
  items: { anyOf: [...JSON_SCALARS, ref('JsonObject'), ...(depth < 3 ? [jsonArray(depth + 1)] : [])] },
});
export const JsonValue = Type.Unsafe<unknown>({
  $id: 'JsonValue',
  // recursive (objects hold any value): as deep as the table stores
  [MAX_DEPTH_KEYWORD]: MAX_JSON_DEPTH,
  description: 'Any JSON value',
  anyOf: [...JSON_SCALARS, jsonArray(1), JsonObject],
});

/** A JSON Schema, as far as the keywords the service's own schemas use (the movement catalogue answered as input schemas). */
const JSON_SCHEMA_REF = { $ref: '#/components/schemas/JsonSchema' };
const count = { type: 'integer', minimum: 0 };
export const JsonSchema = Type.Unsafe<Record<string, unknown>>({
  $id: 'JsonSchema',
  [MAX_DEPTH_KEYWORD]: MAX_JSON_DEPTH,
  type: 'object',
  description: 'A JSON Schema (draft 2020-12 keywords)',
  properties: {
    type: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    title: { type: 'string' },
    description: { type: 'string' },
    const: JsonValue,
    enum: { type: 'array', items: ref('JsonValue') },
    examples: { type: 'array', items: ref('JsonValue') },
    default: ref('JsonValue'),
    format: { type: 'string' },
    [MIN_DATE_KEYWORD]: { type: 'string', description: 'A date a person types: the earliest accepted (YYYY-MM-DD)' },
    [MAX_DAYS_AHEAD_KEYWORD]: { type: 'integer', description: 'A date a person types: at most this many days after today' },
    pattern: { type: 'string' },
    minimum: { type: 'number' },
    maximum: { type: 'number' },
    exclusiveMinimum: { type: 'number' },
    exclusiveMaximum: { type: 'number' },
    minLength: count,
    maxLength: count,
    minItems: count,
    maxItems: count,
    uniqueItems: { type: 'boolean' },
    minProperties: count,
    maxProperties: count,
    items: JSON_SCHEMA_REF,
    required: { type: 'array', items: { type: 'string' } },
    properties: { type: 'object', additionalProperties: JSON_SCHEMA_REF },
    patternProperties: { type: 'object', additionalProperties: JSON_SCHEMA_REF },
    additionalProperties: { anyOf: [{ type: 'boolean' }, JSON_SCHEMA_REF] },
    anyOf: { type: 'array', items: JSON_SCHEMA_REF },
    oneOf: { type: 'array', items: JSON_SCHEMA_REF },
  },
});

/**
 * The `farmId` of a list that may also name a flock, a cycle or a house (`named`): it may be left out when
 * the caller is assigned to one farm, or when the request names one of those, whose farm is then the list's.
 */
export const ListFarmId = (named: string) =>
  Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_-]+$',
      description: `The farm; may be left out when you are assigned to one farm, or when ${named} is given (the list is then of its farm)`,
    }),
  );
