import type { MiddlewareObj } from '@middy/core';
import { ValidationFailed, type FieldError } from '../../errors.js';
import { stateOf, type HttpRequest, type RouteSpec } from '../context.js';
import type { CompiledSchema } from '../../../schemas/compiled-schema.js';
import { problemsOf } from '../../../schemas/problems.js';

/**
 * Stage 8: path params, query and body against the route's precompiled validators (all errors at once):
 * 400 `{error, details:[{field, message}]}` with fields like `body.email` or `query.limit`. A route
 * without a query or params schema accepts none.
 */
function check(location: string, validator: CompiledSchema<unknown> | undefined, data: unknown, out: FieldError[]): void {
  if (!validator) {
    for (const name of Object.keys(data as object)) out.push({ field: `${location}.${name}`, message: 'is not allowed' });
    return;
  }
  for (const p of problemsOf(validator, data)) out.push({ field: p.field ? `${location}.${p.field}` : location, message: p.message });
}

/**
 * What JSON Schema cannot say about a number: it must be finite (a coerced query `Infinity` passes
 * AJV's bounds) and storable in DynamoDB (magnitude 1e-130 … 9.99e125; 5e-324 would be a 500 there).
 */
const DYNAMODB_MIN_MAGNITUDE = 1e-130;
const DYNAMODB_MAX_MAGNITUDE = 1e126 - 1e110 /* 9.99…e125: DynamoDB's largest magnitude */;

function numberProblems(location: string, data: unknown, out: FieldError[], depth = 0): void {
  if (typeof data === 'number') {
    const size = Math.abs(data);
    if (!Number.isFinite(data)) out.push({ field: location, message: 'must be a finite number' });
    else if (size !== 0 && (size < DYNAMODB_MIN_MAGNITUDE || size > DYNAMODB_MAX_MAGNITUDE))
      out.push({ field: location, message: 'is too small or too large a number to store' });
    return;
  }
  if (typeof data !== 'object' || data === null || depth > 64) return;
  for (const [k, v] of Object.entries(data)) numberProblems(`${location}.${k}`, v, out, depth + 1);
}

export function validate(spec: RouteSpec): MiddlewareObj {
  const before = (request: HttpRequest) => {
    const state = stateOf(request);
    const details: FieldError[] = [];
    check('params', spec.params, state.params, details);
    check('query', spec.query, state.query, details);
    if (spec.body) check('body', spec.body, state.body, details);
    for (const key of state.forbiddenKeys) {
      const field = `body.${key}`;
      if (!details.some((d) => d.field === field)) details.push({ field, message: 'is not allowed' });
    }
    if (details.length === 0) {
      numberProblems('query', state.query, details);
      if (spec.body) numberProblems('body', state.body, details);
    }
    if (details.length > 0) throw new ValidationFailed(details.slice(0, 50));
  };
  return { before } as MiddlewareObj;
}
