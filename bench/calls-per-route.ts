/**
 * `npm run bench:calls [-- --out <file>]`: the DynamoDB calls of each route, counted exactly, for a
 * before/after comparison of a change (bench/compare-calls.ts). Starts its own in-memory DynamoDB Local and
 * table (as `npm run bench`), seeds an admin, and runs the fixed scenario of bench/lib/calls-scenario.ts
 * (about 50 requests: sign-in, farm, house, flock, cycle, every kind of movement, daily record, weights,
 * scale, sensors, incidents, schedules, rules, purchasing, the main reads, a user, the cycle closed)
 * through the real handlers and their middleware in process, as the integration tests do. The functions
 * the service invokes itself run in this process (tests/support/lambda.ts); their calls are counted apart.
 *
 * Prints one row per route (method + path template, a variant where a route appears twice): status,
 * calls by command, total (rate limiter and user load included), middleware calls, items read by the data
 * calls, and the calls of the functions the request invoked. Writes the rows as JSON to `--out`
 * (default bench/results/calls-per-route.json), with no timestamp, so two runs diff line by line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../scripts/lib/route-table.js';
import { createBenchTable, startBenchDb, stopOnSignals } from './lib/bench-db.js';
import { SCENARIO_ADMIN, callsScenario, type Step } from './lib/calls-scenario.js';
import { expectStatus } from './lib/requests.js';
import { callsOf, callsOutsideSince, formatCalls, installRouteProbe, recordMark, withinRequest, type RequestCalls } from './lib/route-calls.js';

export interface RouteRow extends RequestCalls {
  /** Unique in a run: route, and variant in brackets. */
  key: string;
  /** Method and path template, e.g. `POST /api/v1/flocks/{flockId}/cycles`. */
  route: string;
  variant: string | null;
  status: number;
  /** DynamoDB calls of the functions the request invoked (asynchronously in AWS; not in `total`). */
  invokedCalls: number;
  invoked: string[];
}

export interface CallsReport {
  about: string;
  routes: RouteRow[];
}

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const OUT = resolve(values.out ?? `${ROOT}/bench/results/calls-per-route.json`);
const log = (s: string) => console.log(s);

const bench = await startBenchDb(log, 'calls per route');
let closeStandIn: (() => Promise<void>) | undefined;
const stopAll = async () => {
  await closeStandIn?.();
  await bench.dynamo.stop();
};
stopOnSignals(bench.dynamo, stopAll, 'DynamoDB Local', log);

try {
  await createBenchTable(bench);
  const { generate } = await import('../scripts/generate.js');
  await generate();
  // The functions the service invokes itself run here, as in the integration tests (set before any handler loads).
  const { invocations, startLambdaStandIn } = await import('../tests/support/lambda.js');
  const standIn = await startLambdaStandIn('bench');
  closeStandIn = standIn.close;
  process.env.LAMBDA_ENDPOINT = standIn.url;

  const api = await import('../tests/support/api.js');
  const { seed } = await import('../scripts/lib/seed.js');
  const { db } = await import('../shared/db/client.js');
  installRouteProbe(db());
  await seed(SCENARIO_ADMIN);
  const login = expectStatus(await api.call('POST', '/api/v1/auth/login', { body: SCENARIO_ADMIN }), 200, 'sign-in');
  const token = login.body.token as string;

  const send = (step: Step) =>
    api.call(step.method, step.path, {
      ...(step.anonymous ? {} : { token }),
      ...(step.body !== undefined ? { body: step.body } : {}),
      ...(step.headers ? { headers: step.headers } : {}),
      ...(step.query ? { query: step.query } : {}),
      ip: '10.20.30.40',
    });
  const rows: Array<Omit<RouteRow, keyof RequestCalls>> = [];
  log('running the scenario…');
  await callsScenario(
    async (step) => {
      const route = `${step.method} ${api.matchRoute(step.method, step.path).route.path}`;
      const key = step.variant ? `${route} [${step.variant}]` : route;
      if (rows.some((r) => r.key === key)) throw new Error(`two steps measure ${key}: give one a variant`);
      const mark = recordMark();
      const started = invocations.length;
      const res = expectStatus(await withinRequest(key, () => send(step)), step.status, key);
      const invoked = invocations.slice(started).map((i) => i.name.replace(/^flockwise-bench-/, ''));
      rows.push({ key, route, variant: step.variant ?? null, status: res.status, invokedCalls: callsOutsideSince(mark), invoked });
      return res;
    },
    async (step) => expectStatus(await send(step), step.status, `set-up ${step.method} ${step.path}`),
  );
  // a call still in flight after its response (none is expected) would be counted for its request all the same
  await new Promise((r) => setTimeout(r, 250));
  const report: CallsReport = {
    about: 'DynamoDB calls per request of the bench:calls scenario (bench/calls-per-route.ts); total includes the limiter and the user load',
    routes: rows.map((r) => ({ ...r, ...callsOf(r.key) })),
  };

  printTable(report.routes);
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
  const sum = report.routes.reduce((n, r) => n + r.total, 0);
  log(`\n${report.routes.length} requests, ${sum} DynamoDB calls; wrote ${OUT}`);
} finally {
  await stopAll();
}

function printTable(rows: RouteRow[]): void {
  const table = [
    ['route', 'status', 'DynamoDB calls by command', 'total', 'middleware', 'items read', 'invoked fn calls'],
    ...rows.map((r) => [
      r.key,
      String(r.status),
      formatCalls(r.calls),
      String(r.total),
      String(r.middleware),
      String(r.itemsRead),
      r.invoked.length ? `${r.invokedCalls} (${r.invoked.join(', ')})` : '',
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, i) => (i === 0 || i === 2 || i === 6 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  log('');
  log(line(table[0]!));
  log(`| ${widths.map((w, i) => (i === 0 || i === 2 || i === 6 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`);
  for (const row of table.slice(1)) log(line(row));
}
