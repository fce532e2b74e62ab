import type { ErrorObject } from 'ajv';
import type { FieldError } from '../shared/errors.js';
import type { CompiledSchema } from './compiled-schema.js';

/**
 * What a precompiled validator finds wrong with some data, as `{field, message}` pairs named from the
 * data's own root (`date`, `samples.3`); empty when the data passes. The one translation of schema
 * errors: the HTTP validation stage prefixes where the data came from (`body.`, `query.`), a use case
 * re-checking merged input (a movement edit) reports the names as they are.
 */
export function problemsOf(validator: CompiledSchema<unknown>, data: unknown): FieldError[] {
  if (validator(data)) return [];
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of validator.errors ?? []) {
    // anyOf/oneOf branches repeat the same complaint; keep each field/message pair once
    const problem = { field: fieldOf(e), message: messageOf(e) };
    const key = `${problem.field}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(problem);
  }
  return out;
}

function fieldOf(e: ErrorObject): string {
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') path.push(String(e.params.missingProperty));
  if (e.keyword === 'additionalProperties') path.push(String(e.params.additionalProperty));
  return path.join('.');
}

function messageOf(e: ErrorObject): string {
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not allowed';
    case 'enum':
    case 'const':
      return `must be one of: ${((e.params.allowedValues as unknown[] | undefined) ?? [e.params.allowedValue]).join(', ')}`;
    default:
      return e.message ?? 'is invalid';
  }
}
