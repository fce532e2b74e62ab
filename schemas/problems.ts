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

/**
 * The message of one schema error. The validators are compiled without AJV's messages (`messages: false`:
 * ~12 % smaller bundles), so the words are made here from the keyword and its params, as AJV's own.
 */
function messageOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not allowed';
    case 'enum':
    case 'const':
      return `must be one of: ${((p.allowedValues as unknown[] | undefined) ?? [p.allowedValue]).join(', ')}`;
    case 'type':
      return `must be ${[p.type].flat().join(',')}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${p.comparison} ${p.limit}`;
    case 'minLength':
    case 'maxLength':
      return `must NOT have ${e.keyword === 'maxLength' ? 'more' : 'fewer'} than ${p.limit} characters`;
    case 'minItems':
    case 'maxItems':
      return `must NOT have ${e.keyword === 'maxItems' ? 'more' : 'fewer'} than ${p.limit} items`;
    case 'minProperties':
    case 'maxProperties':
      return `must NOT have ${e.keyword === 'maxProperties' ? 'more' : 'fewer'} than ${p.limit} properties`;
    case 'pattern':
      return `must match pattern "${p.pattern}"`;
    case 'format':
      return `must match format "${p.format}"`;
    case 'uniqueItems':
      return `must NOT have duplicate items (items ## ${p.j} and ${p.i} are identical)`;
    case 'multipleOf':
      return `must be multiple of ${p.multipleOf}`;
    case 'oneOf':
      return 'must match exactly one schema in oneOf';
    case 'anyOf':
      return 'must match a schema in anyOf';
    case 'not':
      return 'must NOT be valid';
    case 'if':
      return `must match "${p.failingKeyword}" schema`;
    case 'propertyNames':
      return 'property name must be valid';
    case 'discriminator':
      return p.error === 'tag' ? `tag "${p.tag}" must be string` : `value of tag "${p.tag}" must be in oneOf`;
    case 'false schema':
      return 'boolean schema is false';
    default:
      return e.message ?? 'is invalid';
  }
}
