/**
 * `npm run bench:compare-calls -- <before.json> <after.json>`: compares two outputs of `npm run bench:calls`
 * route by route. Prints every route whose total of DynamoDB calls per request went up (with both
 * breakdowns), then those that went down, changed their mix of commands at the same total, or are in one
 * file only. Exits 1 when a route's total went up, so "the same or fewer calls for every route" can be a check.
 */
import { readFileSync } from 'node:fs';
import type { CallsReport, RouteRow } from './calls-per-route.js';
import { formatCalls } from './lib/route-calls.js';

const [beforeFile, afterFile] = process.argv.slice(2);
if (!beforeFile || !afterFile) {
  console.error('usage: tsx bench/compare-calls.ts <before.json> <after.json>');
  process.exit(2);
}

const load = (file: string): Map<string, RouteRow> => {
  const report = JSON.parse(readFileSync(file, 'utf8')) as CallsReport;
  return new Map(report.routes.map((r) => [r.key, r]));
};
const before = load(beforeFile);
const after = load(afterFile);

const both = [...before.keys()].filter((k) => after.has(k));
const pairs = both.map((key) => ({ key, b: before.get(key)!, a: after.get(key)! }));
const up = pairs.filter(({ a, b }) => a.total > b.total);
const down = pairs.filter(({ a, b }) => a.total < b.total);
const reshaped = pairs.filter(({ a, b }) => a.total === b.total && formatCalls(a.calls) !== formatCalls(b.calls));
const onlyBefore = [...before.keys()].filter((k) => !after.has(k));
const onlyAfter = [...after.keys()].filter((k) => !before.has(k));

const change = ({ key, a, b }: (typeof pairs)[number]) =>
  `  ${key}: ${b.total} → ${a.total}\n      before: ${formatCalls(b.calls)}\n      after:  ${formatCalls(a.calls)}`;

console.log(`${beforeFile} → ${afterFile}: ${pairs.length} routes in both`);
console.log(up.length ? `\nMORE calls per request (${up.length}):\n${up.map(change).join('\n')}` : '\nno route makes more calls per request');
if (down.length) console.log(`\nfewer calls per request (${down.length}):\n${down.map(change).join('\n')}`);
if (reshaped.length) console.log(`\nsame total, other commands (${reshaped.length}):\n${reshaped.map(change).join('\n')}`);
const sum = (rows: Iterable<RouteRow>) => [...rows].reduce((n, r) => n + r.total, 0);
console.log(`\ntotal over the routes in both: ${sum(pairs.map((p) => p.b))} → ${sum(pairs.map((p) => p.a))}`);
if (onlyBefore.length) console.log(`\nonly in ${beforeFile} (not compared):\n${onlyBefore.map((k) => `  ${k}`).join('\n')}`);
if (onlyAfter.length) console.log(`\nonly in ${afterFile} (not compared):\n${onlyAfter.map((k) => `  ${k}`).join('\n')}`);
process.exit(up.length ? 1 : 0);
