/**
 * A minimal valid instance of a request schema (required fields only; the first property when a
 * schema needs at least one; the first branch of a oneOf). Generated tests use it to get past
 * validation and reach the route's own rules.
 */
import { ulid } from 'ulidx';

type Schema = Record<string, unknown>;

export function sampleOf(schema: Schema): unknown {
  if (Array.isArray(schema.oneOf)) return sampleOf(schema.oneOf[0] as Schema);
  if (Array.isArray(schema.anyOf)) return sampleOf((schema.anyOf as Schema[]).find((s) => s.type !== 'null') as Schema);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      const names =
        required.length > 0
          ? required
          : Number(schema.minProperties ?? 0) > 0
            ? Object.keys(props)
                .filter((k) => k !== 'version')
                .slice(0, 1)
            : [];
      return Object.fromEntries(names.map((n) => [n, sampleOf(props[n] ?? { type: 'string' })]));
    }
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 1) }, () => sampleOf((schema.items ?? { type: 'string' }) as Schema));
    case 'integer':
    case 'number': {
      const min = schema.minimum !== undefined ? Number(schema.minimum) : schema.exclusiveMinimum !== undefined ? Number(schema.exclusiveMinimum) + 1 : 1;
      return Math.max(min, 1);
    }
    case 'boolean':
      return true;
    default:
      if (schema.format === 'date') return '2026-11-03';
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.format === 'email') return `sample-${ulid().toLowerCase()}@example.com`;
      if (String(schema.pattern ?? '').startsWith('^[0-9A-HJKMNP-TV-Z]{26}')) return ulid();
      return 'x'.repeat(Math.max(Number(schema.minLength ?? 1), 1));
  }
}
