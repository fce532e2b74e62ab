/**
 * Section 2: the DynamoDB calls of one warm request per read route (limiter, user load and data calls
 * apart, per command), and the cycle summary's calls as its cycle grows to 10 / 100 / 1,000 (/ 10,000)
 * movements.
 */
import { breakdown, fmt, resetProbe, total, type CallBreakdown } from '../lib/db-probe.js';
import { day, expectStatus } from '../lib/requests.js';
import { round } from '../lib/stats.js';
import type { Fixtures } from './fixtures.js';
import { SUMMARY_MAX, log, section } from './settings.js';

export interface CallsRow extends CallBreakdown {
  route: string;
  path: string;
  dataCalls: number;
}

export interface SummaryScalingRow {
  movements: number;
  dataCalls: Record<string, number>;
  dataItemsRead: number;
  limiter: number;
  userLoad: number;
  summaryUs: number;
}

export async function measureCalls({ api, token, adminId, farmId, main, movementId, newCycle }: Fixtures) {
  log('\n2. DynamoDB calls per read request (limiter / user load / data, counted per command)');
  section('calls');
  const reads: Array<[string, string, Record<string, string>?]> = [
    ['cycle summary', main.base],
    ['flock get', `/api/v1/flocks/${main.flockId}`],
    ['movement get', `${main.base}/movements/${movementId}`],
    ['movement list', `${main.base}/movements`, { limit: '50' }],
    ['user get', `/api/v1/admin/users/${adminId}`],
    ['inventory stock', '/api/v1/inventory/stock', { farmId }],
  ];
  const calls: CallsRow[] = [];
  for (const [name, path, query] of reads) {
    expectStatus(await api.call('GET', path, { token, ...(query ? { query } : {}) }), 200, name); // warm
    resetProbe();
    expectStatus(await api.call('GET', path, { token, ...(query ? { query } : {}) }), 200, name);
    const b = breakdown();
    calls.push({ route: name, path: api.matchRoute('GET', path).route.path, ...b, dataCalls: total(b.data) });
  }
  console.table(
    calls.map((c) => ({
      route: c.route,
      limiter: fmt(c.limiter),
      'user load': fmt(c.userLoad),
      data: fmt(c.data),
      'data calls': c.dataCalls,
      'items read': c.dataItemsRead,
    })),
  );

  log(`\n   Cycle summary vs. number of movements (created through the API, parallel batches of 20)`);
  const growth = await newCycle('Bench summary growth');
  const levels = [10, 100, 1000, 10_000].filter((n) => n <= SUMMARY_MAX);
  const summaryScaling: SummaryScalingRow[] = [];
  let recorded = 0;
  for (const level of levels) {
    while (recorded < level) {
      const n = Math.min(20, level - recorded);
      const results = await Promise.all(
        Array.from({ length: n }, () => api.call('POST', `${growth.base}/movements`, { token, body: { type: 'bird_inflow', date: day(-20), quantity: 1 } })),
      );
      for (const r of results) expectStatus(r, 201, 'movement');
      recorded += n;
    }
    await api.call('GET', growth.base, { token });
    resetProbe();
    const t = performance.now();
    const s = expectStatus(await api.call('GET', growth.base, { token }), 200, 'summary');
    const summaryUs = round((performance.now() - t) * 1000, 0);
    if (s.body.data.movementCount !== level) throw new Error(`summary shows ${s.body.data.movementCount} movements, expected ${level}`);
    const b = breakdown();
    summaryScaling.push({
      movements: level,
      dataCalls: b.data,
      dataItemsRead: b.dataItemsRead,
      limiter: total(b.limiter),
      userLoad: total(b.userLoad),
      summaryUs,
    });
  }
  console.table(
    summaryScaling.map((s) => ({
      movements: s.movements,
      'data calls': fmt(s.dataCalls),
      'items read': s.dataItemsRead,
      limiter: s.limiter,
      'user load': s.userLoad,
      'one summary µs': s.summaryUs,
    })),
  );
  return { calls, summaryScaling };
}
