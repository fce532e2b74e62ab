/**
 * The rules every input obeys (schemas/input-limits.ts) and the one meaning of a period
 * (shared/domain/periods.ts), without a table: every recursive request schema declares its depth, depth
 * is measured without recursion however deep a value goes, every `from`/`to` is the one period schema,
 * and a date is the farm's day (daylight saving included).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/route-table.js';
import { depthProblems, maxDepthOf, textProblems, within } from '../../schemas/input-limits.js';
import { PeriodFrom, PeriodTo } from '../../schemas/common.js';
import { createRuleBody } from '../../schemas/rules.js';
import { validateDailyDataBody } from '../../schemas/daily-records.js';
import { periodDays, periodInstants, startOfLocalDay } from '../../shared/domain/periods.js';

type Schema = Record<string, unknown>;
const plain = (s: unknown) => JSON.parse(JSON.stringify(s)) as Schema;

/** Every schema schemas/*.ts exports (request and response), by name. */
async function exportedSchemas(): Promise<Array<[string, Schema]>> {
  const dir = join(ROOT, 'schemas');
  const out: Array<[string, Schema]> = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'compiled-schema.ts')) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
    for (const [name, s] of Object.entries(mod)) {
      if (!s || typeof s !== 'object' || Array.isArray(s)) continue;
      const schema = plain(s);
      if (['type', 'anyOf', 'oneOf', '$ref', 'properties'].some((k) => k in schema)) out.push([name, schema]);
    }
  }
  return out;
}

let all: Array<[string, Schema]>;
let schemas: Array<[string, Schema]>;
beforeAll(async () => {
  all = await exportedSchemas();
  schemas = all.filter(([name]) => /(Body|Query|Params)$/.test(name));
}, 60_000);

describe('depth', () => {
  it('every request schema has a depth of at most 32 levels; the rule bodies 13 (a condition: 12)', () => {
    expect(schemas.length).toBeGreaterThan(100);
    for (const [name, s] of schemas) expect(maxDepthOf(s), name).toBeLessThanOrEqual(32);
    expect(maxDepthOf(plain(createRuleBody))).toBe(13);
  });

  it('every schema of schemas/ that refers to itself declares its depth (x-maxDepth): a json-logic condition, any JSON value, a JSON Schema', () => {
    expect(all.length).toBeGreaterThan(300);
    for (const [name, s] of all) expect(() => maxDepthOf(s), name).not.toThrow();
  });

  it('a schema that refers to itself without x-maxDepth is refused (the build fails on it)', () => {
    const loop = { $id: 'Loop', type: 'object', properties: { next: { $ref: 'Loop' } } };
    expect(() => maxDepthOf(loop)).toThrow(/refers to itself without declaring x-maxDepth \(Loop\)/);
    expect(maxDepthOf({ ...loop, 'x-maxDepth': 5 })).toBe(5);
  });

  it('a value 100,000 levels deep is measured and named without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { and: [deep] };
    expect(within(deep, 12)).toBe(false);
    expect(depthProblems(plain(createRuleBody), { name: 'x', condition: deep })).toEqual([
      { field: 'condition', message: 'is nested too deep (at most 12 levels of objects and arrays)' },
    ]);
    // where any value is taken, 32 levels (DynamoDB's limit); a shape broken otherwise is the validator's to name (`is not allowed`)
    expect(depthProblems(plain(validateDailyDataBody), { dailyRecord: 'x', productionStage: 'growing', extra: deep })).toEqual([
      { field: 'extra', message: 'is nested too deep (at most 32 levels of objects and arrays)' },
    ]);
    expect(depthProblems(plain(createRuleBody), { unknown: deep })).toEqual([]);
  });

  it('text: NUL and unpaired surrogates in values and names, by field; a pair is fine', () => {
    expect(textProblems({ a: 'ok 🐔', b: ['x', 'y\u0000'], c: { 'd\uD800': 1, e: '\uDC00' } })).toEqual([
      { field: 'b.1', message: 'must not contain NUL characters (U+0000)' },
      { field: 'c.d\uD800', message: 'its name must not contain unpaired surrogates (it is not valid Unicode text)' },
      { field: 'c.e', message: 'must not contain unpaired surrogates (it is not valid Unicode text)' },
    ]);
  });
});

describe('periods', () => {
  it('every from/to of every request query and body is the one period schema', () => {
    let found = 0;
    for (const [name, s] of schemas) {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      for (const [end, schema] of [
        ['from', PeriodFrom],
        ['to', PeriodTo],
      ] as const) {
        if (!props[end] || props[end].type === 'object') continue; // a transfer's `from`/`to` are farms
        expect(props[end], `${name}.${end}`).toEqual(plain(schema));
        found++;
      }
    }
    expect(found).toBeGreaterThanOrEqual(18);
  });

  it('a date is the farm’s day: its first instant, daylight saving included; to: the whole day', () => {
    expect(new Date(startOfLocalDay('2026-11-21', 'Pacific/Kiritimati')).toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(new Date(startOfLocalDay('2026-03-29', 'Europe/Paris')).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    // Santiago skips midnight when summer time starts: the day starts at 01:00
    expect(new Date(startOfLocalDay('2026-09-06', 'America/Santiago')).toISOString()).toBe('2026-09-06T04:00:00.000Z');
    const paris = periodInstants({ from: '2026-03-29', to: '2026-03-29' }, 'Europe/Paris');
    expect((paris.endMs! - paris.fromMs!) / 3_600_000).toBe(23);
    expect(periodInstants({ from: '2026-11-20T10:00:00+01:00' }, 'UTC')).toEqual({ fromMs: Date.parse('2026-11-20T09:00:00Z'), endMs: undefined });
  });

  it('as days: the farm-local days a period overlaps; an empty period is refused on `to`', () => {
    expect(periodDays({ from: '2026-11-20T23:30:00Z', to: '2026-11-21T23:00:00Z' }, 'Europe/Paris')).toEqual({ from: '2026-11-21', to: '2026-11-21' });
    expect(periodDays({ from: '2026-11-20', to: '2026-11-20' }, 'UTC')).toEqual({ from: '2026-11-20', to: '2026-11-20' });
    for (const p of [
      { from: '2026-11-21', to: '2026-11-20' },
      { from: '2026-11-20T10:00:00Z', to: '2026-11-20T10:00:00Z' },
      { from: '2026-11-20', to: '2026-11-20T00:00:00Z' },
    ])
      expect(() => periodDays(p, 'UTC'), JSON.stringify(p)).toThrow(expect.objectContaining({ details: [{ field: 'to', message: 'must be after from' }] }));
  });
});
