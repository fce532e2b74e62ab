import type { ErrorObject } from 'ajv';

/**
 * A request schema compiled at build time (scripts/compile-schemas.ts → schemas/compiled/*.js).
 * Calling it validates (and, for Query/Params schemas, coerces strings and applies defaults in place).
 */
export interface CompiledSchema<T> {
  (data: unknown): data is T;
  errors?: ErrorObject[] | null;
  /** The JSON Schema it was compiled from (used for the OpenAPI document). */
  schema: Record<string, unknown>;
}
