import type { ErrorObject } from 'ajv';
import type { FieldError } from '../shared/errors.js';
import type { CompiledSchema } from './compiled-schema.js';
import { depthProblems, MAX_DAYS_AHEAD_KEYWORD, MIN_DATE_KEYWORD, textProblems } from './input-limits.js';
import { isoDate } from '../shared/platform/calendar.js';

/**
 * What a precompiled validator finds wrong with some data, as `{field, message}` pairs named from the
 * data's own root (`date`, `samples.3`); empty when the data passes. The one translation of schema
 * errors: the HTTP validation stage prefixes where the data came from (`body.`, `query.`), the event
 * stack drops a payload naming them, a use case re-checking merged input (a movement edit) reports the
 * names as they are. The rules of every input (schemas/input-limits.ts) come with it: data nested deeper
 * than its schema allows is refused before the validator walks it, and text must be text.
 */
export function problemsOf(validator: CompiledSchema<unknown>, data: unknown): FieldError[] {
  const deep = depthProblems(validator.schema, data);
  if (deep.length > 0) return deep;
  const text = textProblems(data);
  if (validator(data)) return text;
  const out: FieldError[] = [];
  const seen = new Set<string>();
  const add = (problem: FieldError) => {
    // anyOf/oneOf branches repeat the same complaint; keep each field/message pair once
    const key = `${problem.field}\u0000${problem.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(problem);
  };
  const errors = validator.errors ?? [];
  const folded = foldedFormats(errors);
  for (const e of errors) {
    const fold = folded.get(e);
    if (fold === null) continue;
    add(fold ?? { field: fieldOf(e), message: messageOf(e) });
  }
  for (const t of text) add(t);
  return out;
}

/**
 * A value that may take one of several formats (a date or a timestamp) fails each of them and the
 * `anyOf`: one complaint naming the formats instead (the anyOf error maps to it, its branches to null).
 */
function foldedFormats(errors: ErrorObject[]): Map<ErrorObject, FieldError | null> {
  const out = new Map<ErrorObject, FieldError | null>();
  for (const a of errors) {
    if (a.keyword !== 'anyOf') continue;
    const inner = errors.filter((e) => e !== a && e.schemaPath.startsWith(`${a.schemaPath}/`));
    if (inner.length < 2 || !inner.every((e) => e.keyword === 'format' && e.instancePath === a.instancePath)) continue;
    for (const e of inner) out.set(e, null);
    out.set(a, { field: fieldOf(a), message: `must match format ${inner.map((e) => `"${String(e.params.format)}"`).join(' or ')}` });
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
    case MIN_DATE_KEYWORD:
      return `must not be before ${p.limit}`;
    case MAX_DAYS_AHEAD_KEYWORD:
      return `must not be after ${isoDate(Date.now() + Number(p.limit) * 86_400_000)} (${p.limit} days after today)`;
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
