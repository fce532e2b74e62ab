/**
 * OWASP API4:2023 (unrestricted resource consumption), generated from the route table and the request
 * schemas: the rate limit of every limiter class (shared/config/rate-limits.ts; small quotas set through
 * the documented RATE_LIMIT_<CLASS>_MAX / _WINDOW_SECONDS for this file), the body size cap (413) on every
 * route with a body, page sizes of every list (`limit` above its maximum is 400, not clamped: the schemas
 * say `maximum`), every maxLength / maxItems / maxProperties / maximum / minimum a body schema declares
 * (one past the bound is 400 naming the field), non-finite numbers, deep JSON nesting, thousands of
 * properties, and huge query strings and path parameters: always a 4xx naming the problem, never a 5xx.
 */
import { randomBytes } from 'node:crypto';
import { ulid } from 'ulidx';
import { beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../shared/config/env.js';
import { limiterClassesFor } from '../../shared/config/rate-limits.js';
import { dbCalls, resetDbCalls } from '../../shared/db/client.js';
import { getUserIdByEmail } from '../../shared/db/users.js';
import { buildEvent, call, handlerFor, matchRoute, type CallOptions, type CallResult } from '../support/api.js';
import { otherFarm } from '../support/farms.js';
import { account, session } from './support/accounts.js';
import { day, farmFixture, type Fixture } from './support/fixture.js';
import { apiRoutes, fill, hasBody, isPublic, knownParams, type Route } from './support/routes.js';
import { boundCases, fieldOf, numericFields, setAt, validBody, variantName, variants, type Schema } from './support/schema.js';

// --- small quotas for this file. Each handler reads them when its module is first imported, which happens
// below (apiRoutes, call): none of the imports above loads a handler. ---------------------------------------
const LIMITS = { general: 20, auth: 4, read: 5, date: 6, ingest: 7 } as const;
type LimiterClass = keyof typeof LIMITS;
/** One window for every class, chosen so that at least 20 minutes of it remain: no window boundary mid-test. */
const WINDOW = (() => {
  const now = Math.floor(Date.now() / 1000);
  for (let w = 3600; ; w += 3600) if (w - (now % w) >= 1200) return w;
})();
for (const [cls, max] of Object.entries(LIMITS)) {
  process.env[`RATE_LIMIT_${cls.toUpperCase()}_MAX`] = String(max);
  process.env[`RATE_LIMIT_${cls.toUpperCase()}_WINDOW_SECONDS`] = String(WINDOW);
}

const routes = await apiRoutes();
const writeRoutes = routes.filter(hasBody);
const listRoutes = routes.filter((r) => r.method === 'GET' && r.spec.query && 'limit' in ((r.spec.query.schema.properties ?? {}) as object));
const MAX_BODY = settings().maxBodyBytes;

let fx: Fixture;
beforeAll(async () => {
  fx = await farmFixture('API4');
});

const tokenFor = async (r: Route) => (isPublic(r) ? undefined : r.path.endsWith('/logout') ? session(fx.admin.id) : fx.admin.token);
/** What the route authenticates with: a token, or the fixture's device key on sensor ingestion. */
const authFor = async (r: Route): Promise<CallOptions> =>
  r.spec.capability === 'device' ? { headers: { 'X-Device-Key': fx.deviceKey } } : { token: await tokenFor(r) };
const send = async (r: Route, opts: CallOptions = {}) => call(r.method, fill(r.path, fx.ids), { ...(await authFor(r)), ...opts });
const details = (res: CallResult): Array<{ field: string; message: string }> => res.body?.details ?? [];

function expectNamed(res: CallResult, label: string, field: string, message?: string): void {
  expect(res.status, `${label} → ${res.raw.slice(0, 500)}`).toBe(400);
  const match = details(res).filter((d) => d.field === field && (message === undefined || d.message === message));
  expect(match.length, `${label}: ${field}${message ? ` "${message}"` : ''} in ${res.raw.slice(0, 800)}`).toBeGreaterThan(0);
}

// -------------------------------------------------------------------------------------------------------

describe('rate limits: every limiter class, per client', () => {
  const policy = (cls: LimiterClass) => `"${cls}";q=${LIMITS[cls]};w=${WINDOW}`;
  let ipCounter = 0;
  const freshIp = () => `198.18.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
  /** A request to `r` that does nothing but count: no token, an empty body (refused with 401 or 400, or served if public). */
  const anonymous = (r: Route, ip: string) => call(r.method, fill(r.path), { ip, ...(r.spec.body ? { body: {} } : {}) });

  it('every route but /health announces its classes (RateLimit-Policy) and what is left (RateLimit)', async () => {
    for (const r of routes) {
      const res = await anonymous(r, freshIp());
      const classes = limiterClassesFor(r.path) as LimiterClass[];
      if (classes.length === 0) {
        expect(r.path, 'only /health is unlimited').toBe('/health');
        expect(res.headers.RateLimit).toBeUndefined();
        continue;
      }
      expect(res.headers['RateLimit-Policy']?.split(', ').sort(), r.label).toEqual(classes.map(policy).sort());
      expect(res.headers.RateLimit, r.label).toMatch(new RegExp(`^"(${classes.join('|')})";r=\\d+;t=\\d+$`));
    }
  });

  for (const cls of Object.keys(LIMITS) as LimiterClass[]) {
    const members = routes.filter((r) => {
      const classes = limiterClassesFor(r.path);
      return cls === 'general' ? classes.length === 1 && classes[0] === 'general' : classes.includes(cls);
    });
    it(`${cls} (${members.length} routes): the ${LIMITS[cls] + 1}th request of a client within the window is 429 with Retry-After and RateLimit headers`, async () => {
      expect(members.length).toBeGreaterThan(0);
      const max = LIMITS[cls];
      const ip = freshIp();
      // the class's routes share one quota per client: go round them
      for (let i = 0; i < max; i++) {
        const r = members[i % members.length]!;
        const res = await anonymous(r, ip);
        expect(res.status, `${r.label} request ${i + 1} → ${res.raw}`).not.toBe(429);
        expect(res.headers.RateLimit, `${r.label} request ${i + 1}`).toMatch(new RegExp(`^"${cls}";r=${max - i - 1};t=\\d+$`));
      }
      const r = members[max % members.length]!;
      const limited = await anonymous(r, ip);
      expect(limited.status, `${r.label} → ${limited.raw}`).toBe(429);
      expect(Object.keys(limited.body)).toEqual(['error']);
      const retryAfter = Number(limited.headers['Retry-After']);
      expect(limited.body.error).toBe(`Rate limit exceeded (${cls}: ${max} requests per ${WINDOW} s); retry in ${retryAfter} s`);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(WINDOW);
      expect(limited.headers.RateLimit).toBe(`"${cls}";r=0;t=${retryAfter}`);
      expect(limited.headers['RateLimit-Policy']).toContain(policy(cls));
      // still limited; another client is not; /health never is
      expect((await anonymous(members[0]!, ip)).status).toBe(429);
      expect((await anonymous(r, freshIp())).status).not.toBe(429);
      expect((await call('GET', '/health', { ip })).status).toBe(200);
      if (cls === 'general') {
        // general counts on every route: the client is now refused on the other classes' routes too
        for (const other of routes.filter((x) => limiterClassesFor(x.path).length === 2).slice(0, 3))
          expect((await anonymous(other, ip)).status, other.label).toBe(429);
      } else {
        // a specific class does not spend the client's other quotas
        const elsewhere = routes.find((x) => x.path !== '/health' && !limiterClassesFor(x.path).includes(cls))!;
        expect((await anonymous(elsewhere, ip)).status, elsewhere.label).not.toBe(429);
      }
    });
  }

  it('the auth class also counts sign-up per account e-mail: one e-mail from many clients is limited, and nothing is done for it', async () => {
    const email = `target-${ulid().toLowerCase()}@example.com`;
    for (let i = 0; i < LIMITS.auth; i++) {
      // a password too short: refused by validation (no password work, no account), counted all the same
      const res = await call('POST', '/api/v1/auth/signup', { ip: freshIp(), body: { email, password: 'short', name: 'T' } });
      expect(res.status, res.raw).toBe(400);
    }
    const limited = await call('POST', '/api/v1/auth/signup', {
      ip: freshIp(),
      body: { email: email.toUpperCase(), password: 'long-enough-password', name: 'Limited' },
    });
    expect(limited.status, limited.raw).toBe(429);
    expect(limited.body.error).toMatch(/^Rate limit exceeded \(auth: /);
    expect(await getUserIdByEmail(email), 'a limited sign-up creates no account').toBeUndefined();
  });

  it('requests refused before authentication and validation count too (401, 400, 413, 415)', async () => {
    const ip = freshIp();
    const path = '/api/v1/admin/users';
    const refused = [
      await call('POST', path, { ip, body: {} }),
      await call('POST', path, { ip, rawBody: '{"email":' }),
      await call('POST', path, { ip, rawBody: `{"pad":"${'x'.repeat(MAX_BODY)}"}` }),
      await call('POST', path, { ip, rawBody: 'email=a', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
      await call('GET', path, { ip, token: 'garbage' }),
      await call('GET', path, { ip, token: fx.manager.token }),
    ];
    expect(refused.map((r) => r.status)).toEqual([401, 400, 413, 415, 401, 403]);
    expect((await call('GET', path, { ip, token: fx.admin.token })).status).toBe(429);
  });
});

// -------------------------------------------------------------------------------------------------------

describe(`body size: ${MAX_BODY} bytes at most on every route with a body`, () => {
  /** A JSON object of exactly `bytes` bytes. */
  const padded = (bytes: number, char = 'x') => `{"pad":"${char.repeat((bytes - 10) / Buffer.byteLength(char))}"}`;

  it(`one byte over is 413 {error} before anything else is done; exactly ${MAX_BODY} bytes is read (no 413)`, async () => {
    expect(writeRoutes.length).toBeGreaterThan(20);
    expect([Buffer.byteLength(padded(MAX_BODY + 1)), Buffer.byteLength(padded(MAX_BODY))]).toEqual([MAX_BODY + 1, MAX_BODY]);
    for (const r of writeRoutes) {
      // sensor batches have a larger cap of their own (the route declares it)
      const cap = r.spec.maxBodyBytes ?? MAX_BODY;
      const over = await call(r.method, fill(r.path, fx.ids), { rawBody: padded(cap + 1) });
      expect(over.status, `${r.label} → ${over.raw}`).toBe(413);
      expect(over.body, r.label).toEqual({ error: `Request body exceeds ${cap} bytes` });
      const exact = await send(r, { rawBody: padded(cap) });
      expect(exact.status, `${r.label} → ${exact.raw.slice(0, 300)}`).not.toBe(413);
      expect(exact.status, r.label).toBeLessThan(500);
    }
  });

  it('the cap counts bytes, not characters, also for base64-encoded bodies and on routes without a body', async () => {
    const twoByte = `{"pad":"${'é'.repeat(MAX_BODY / 2)}"}`;
    expect(twoByte.length).toBeLessThan(MAX_BODY + 20);
    expect((await call('POST', '/api/v1/auth/signup', { rawBody: twoByte })).status).toBe(413);

    const { route, params } = matchRoute('POST', '/api/v1/auth/login');
    const event = buildEvent('POST', '/api/v1/auth/login', route.path, params, { rawBody: '{}' });
    event.body = Buffer.from(padded(MAX_BODY + 2)).toString('base64');
    event.isBase64Encoded = true;
    const res = await (await handlerFor(route.file))(event, {} as never);
    expect(res.statusCode).toBe(413);

    expect((await call('GET', '/', { rawBody: padded(MAX_BODY + 2) })).status).toBe(413);
  });
});

// -------------------------------------------------------------------------------------------------------

describe('page size: every list declares a maximum `limit` and refuses more (400, not clamped)', () => {
  const bounds = (r: Route) => (r.spec.query!.schema.properties as Record<string, Schema>).limit!;

  it('covers the lists', () => {
    expect(listRoutes.length).toBeGreaterThanOrEqual(8);
    for (const r of listRoutes) expect(bounds(r).maximum, r.label).toBeLessThanOrEqual(1000);
  });

  for (const r of listRoutes) {
    it(`${r.label}: limit above the maximum, below 1 or not an integer is 400; the maximum and the default are served`, async () => {
      const { maximum, default: byDefault } = bounds(r) as { maximum: number; default: number };
      const cases: Array<[string, string]> = [
        [String(maximum + 1), `must be <= ${maximum}`],
        [String(maximum * 1000), `must be <= ${maximum}`],
        ['1e9', `must be <= ${maximum}`],
        ['0', 'must be >= 1'],
        ['-1', 'must be >= 1'],
        ['10abc', 'must be integer'],
        ['2.5', 'must be integer'],
      ];
      // lists that take a farm get the fixture's (the admin is assigned to none)
      const scope: Record<string, string> = 'farmId' in ((r.spec.query!.schema.properties ?? {}) as object) ? { farmId: fx.ids.farmId! } : {};
      for (const [limit, message] of cases) expectNamed(await send(r, { query: { ...scope, limit } }), `${r.label}?limit=${limit}`, 'query.limit', message);
      if (!knownParams(r.path, fx.ids)) return;
      const full = await send(r, { query: { ...scope, limit: String(maximum) } });
      expect(full.status, `${r.label} → ${full.raw.slice(0, 300)}`).toBe(200);
      if (full.body?.page) {
        expect(full.body.page.limit).toBe(maximum);
        expect((await send(r, { query: scope })).body.page.limit).toBe(byDefault);
        const one = await send(r, { query: { ...scope, limit: '1' } });
        expect(one.body.data.length, r.label).toBeLessThanOrEqual(1);
      }
    });
  }

  for (const r of listRoutes.filter((x) => 'cursor' in ((x.spec.query!.schema.properties ?? {}) as object))) {
    it(`${r.label}: an oversized or forged cursor is 400, never another list's records or a 500`, async () => {
      const cursor = (r.spec.query!.schema.properties as Record<string, Schema>).cursor!;
      expectNamed(
        await send(r, { query: { cursor: 'x'.repeat(Number(cursor.maxLength) + 1) } }),
        r.label,
        'query.cursor',
        `must NOT have more than ${cursor.maxLength} characters`,
      );
      for (const forged of [{ PK: `USER#${fx.admin.id}`, SK: 'PROFILE' }, { i: 0, k: { PK: 'AUDIT', SK: ulid() } }, 'not json']) {
        const res = await send(r, { query: { cursor: Buffer.from(typeof forged === 'string' ? forged : JSON.stringify(forged)).toString('base64url') } });
        expect(res.status, `${r.label} ${JSON.stringify(forged)} → ${res.raw.slice(0, 300)}`).toBe(400);
      }
    });
  }
});

// -------------------------------------------------------------------------------------------------------

describe('cursors: every list ends when it ends, and a cursor opens only the list it came from', () => {
  type Page = { data: Array<Record<string, unknown>>; page: { limit: number; nextCursor: string | null } };
  const queryProps = (r: Route) => (r.spec.query!.schema.properties ?? {}) as Record<string, Schema>;
  const pagedRoutes = () => listRoutes.filter((r) => 'cursor' in queryProps(r) && knownParams(r.path, fx.ids));
  /** The fixture's farm for lists that take one (the admin is assigned to none). */
  const scopeOf = (r: Route): Record<string, string> => ('farmId' in queryProps(r) ? { farmId: fx.ids.farmId! } : {});
  const list = async (r: Route, query: Record<string, string>): Promise<Page> => {
    const res = await send(r, { query: { ...scopeOf(r), ...query } });
    expect(res.status, `${r.label} ${JSON.stringify(query).slice(0, 200)} → ${res.raw.slice(0, 300)}`).toBe(200);
    return res.body;
  };
  const idOf = (x: Record<string, unknown>) => String(x.id ?? JSON.stringify(x));
  /** The smallest page size that divides the list into at most 8 full pages: the last page is cut by `limit` exactly at the end. */
  const exactSize = (n: number) => Array.from({ length: n }, (_, i) => i + 1).find((p) => n % p === 0 && n / p <= 8)!;
  /** One bit of the cursor's bytes flipped near its end: still base64url, still the same length. */
  const tampered = (cursor: string) => {
    const bytes = Buffer.from(cursor, 'base64url');
    bytes[bytes.length - 3]! ^= 1;
    return bytes.toString('base64url');
  };
  /** A real cursor (a first page's) of each list the fixture has two or more items in. */
  const cursors = new Map<Route, string>();

  beforeAll(async () => {
    // a second record in some of the farm's lists (besides the users, audit, farms and movements), so they page
    const { farmId, houseId, flockId, cycleId } = fx.ids;
    const base = `/api/v1/flocks/${flockId}/cycles/${cycleId}`;
    const day = new Date(Date.now() - 8 * 86_400_000).toISOString().slice(0, 10);
    for (const [path, body] of [
      [`/api/v1/config/farms/${farmId}/houses`, { name: 'API4 second house', usableAreaM2: 400, capacity: 4000 }],
      ['/api/v1/iot/devices', { farmId, houseId, kind: 'climate', name: 'API4 second climate' }],
      ['/api/v1/schedules', { farmId, kind: 'cleaning', title: 'API4 second schedule', timing: { once: day } }],
      ['/api/v1/procurement/suppliers', { name: 'API4 second mill', kinds: ['feed'], farmIds: [farmId] }],
      [`${base}/daily-records`, { date: day, deaths: 0, feedKg: 0, waterLiters: 50, temperatureMinC: 31, temperatureMaxC: 33, humidityPct: 60 }],
      [`${base}/weights`, { date: day, grams: 60 }],
    ] as const) {
      const res = await call('POST', path, { token: fx.manager.token, body });
      expect(res.status, `${path} ${res.raw}`).toBeLessThan(300);
    }
    for (const r of pagedRoutes()) {
      const first = await list(r, { limit: '1' });
      if (first.page.nextCursor && (await list(r, { limit: '2' })).data.length === 2) cursors.set(r, first.page.nextCursor);
    }
  });

  it('no page is empty, the last one has nextCursor null (also when cut by limit exactly at the end), and the pages hold the whole list', async () => {
    let walked = 0;
    for (const r of pagedRoutes()) {
      const { maximum } = queryProps(r).limit as { maximum: number };
      const whole = await list(r, { limit: String(maximum) });
      expect(whole.page.nextCursor, `${r.label}: the fixture's list fits one page`).toBeNull();
      const n = whole.data.length;
      if (n === 0) continue;
      const size = exactSize(n);
      const pages: Page[] = [];
      let cursor: string | null = null;
      do {
        pages.push(await list(r, { limit: String(size), ...(cursor ? { cursor } : {}) }));
        cursor = pages.at(-1)!.page.nextCursor;
      } while (cursor && pages.length <= n);
      expect(
        pages.map((p) => p.data.length),
        `${r.label}: ${n} items in pages of ${size}`,
      ).toEqual(Array.from({ length: n / size }, () => size));
      expect(
        pages.flatMap((p) => p.data.map(idOf)),
        r.label,
      ).toEqual(whole.data.map(idOf));
      walked++;
    }
    expect(walked, 'lists the fixture has items in').toBeGreaterThanOrEqual(15);
  });

  it('a list over several farms (a manager’s flocks, one partition each) ends with the last farm’s last flock', async () => {
    const farms = [await otherFarm('API4 flocks 1'), await otherFarm('API4 flocks 2')];
    const manager = await account({ role: 'manager', farmIds: farms });
    for (const farmId of [...farms, ...farms]) {
      const res = await call('POST', '/api/v1/flocks', { token: manager.token, body: { name: 'API4 flock', birdType: 'broiler', hatchDate: day(-5), farmId } });
      expect(res.status, res.raw).toBe(201);
    }
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await call('GET', '/api/v1/flocks', { token: manager.token, query: { limit: '2', ...(cursor ? { cursor } : {}) } });
      expect(res.status, res.raw).toBe(200);
      sizes.push(res.body.data.length);
      cursor = res.body.page.nextCursor;
    } while (cursor && sizes.length < 5);
    expect(sizes).toEqual([2, 2]);
  });

  it('a list read in one page reads the table once and hands out no cursor', async () => {
    const users = pagedRoutes().find((r) => r.path === '/api/v1/admin/users')!;
    const n = (await list(users, { limit: '100' })).data.length;
    resetDbCalls();
    const page = await list(users, { limit: String(n) });
    expect(page.data).toHaveLength(n);
    expect(page.page.nextCursor).toBeNull();
    expect(dbCalls.Query).toBe(1);
  });

  it('a cursor is opaque (no table key or id inside) and a tampered one is 400 naming query.cursor', async () => {
    expect(cursors.size, 'lists with a cursor').toBeGreaterThanOrEqual(8);
    for (const [r, cursor] of cursors) {
      const bytes = Buffer.from(cursor, 'base64url').toString('latin1');
      for (const secret of ['"PK"', '"SK"', 'GSI1', fx.ids.farmId!, fx.admin.id])
        expect(bytes.includes(secret), `${r.label} cursor holds ${secret}`).toBe(false);
      expect((await send(r, { query: { ...scopeOf(r), limit: '1', cursor } })).status, r.label).toBe(200);
      expectNamed(await send(r, { query: { ...scopeOf(r), limit: '1', cursor: tampered(cursor) } }), `${r.label} tampered`, 'query.cursor');
    }
  });

  it('a cursor of one list is 400 on every other list, on the same list of another farm, and with other filters', async () => {
    const farmB = await otherFarm('API4 cursor farm');
    const accepted: string[] = [];
    const refused = async (r: Route, query: Record<string, string>, label: string) => {
      const res = await send(r, { query });
      if (!(res.status === 400 && details(res).some((d) => d.field === 'query.cursor'))) accepted.push(`${label} → ${res.status} ${res.raw.slice(0, 120)}`);
    };
    for (const [from, cursor] of cursors) {
      for (const r of pagedRoutes().filter((x) => x !== from)) await refused(r, { ...scopeOf(r), cursor }, `${from.label} cursor on ${r.label}`);
      if ('farmId' in queryProps(from)) await refused(from, { farmId: farmB, cursor }, `${from.label} cursor on another farm`);
      // each filter of the list, set to a value other than its default: another list
      for (const [name, s] of Object.entries(queryProps(from))) {
        const choices = Array.isArray(s.enum) ? s.enum.map(String) : s.type === 'boolean' ? ['true', 'false'] : [];
        const value = choices.find((c) => c !== String(s.default));
        if (value !== undefined)
          await refused(from, { ...scopeOf(from), [name]: value, cursor }, `${from.label}?${name}=${value} with a cursor of the unfiltered list`);
      }
    }
    expect(accepted).toEqual([]);
  });
});

// -------------------------------------------------------------------------------------------------------

describe('bounds of every body schema: one past maxLength, maxItems, maxProperties, maximum or minimum is 400 naming the field', () => {
  const cases = writeRoutes.flatMap((r) => variants(r.spec.body!.schema as Schema).map((v) => ({ r, v, bounds: boundCases(v) })));

  it('finds the bounds', () => {
    const count = (k: string) => cases.reduce((n, c) => n + c.bounds.filter((b) => b.keyword === k).length, 0);
    expect(count('maxLength')).toBeGreaterThan(30);
    expect(count('maxItems')).toBeGreaterThanOrEqual(4);
    expect(count('maximum')).toBeGreaterThan(30);
  });

  for (const r of writeRoutes) {
    const root = r.spec.body!.schema as Schema;
    const mine = cases.filter((c) => c.r === r && c.bounds.length > 0);
    if (mine.length === 0) continue;
    it(`${r.label}: ${mine.reduce((n, c) => n + c.bounds.length, 0)} bounds`, async () => {
      const auth = await authFor(r);
      for (const { v, bounds } of mine) {
        for (const b of bounds) {
          const label = `${r.label} [${variantName(v, root)}] ${b.field} ${b.keyword} ${b.limit}`;
          expectNamed(await call(r.method, fill(r.path, fx.ids), { ...auth, body: b.over }), label, b.field, b.message);
          if (b.at) {
            // exactly at the bound passes that bound (checked on the route's own validator: no write happens)
            r.spec.body!(b.at);
            const complaints = (r.spec.body!.errors ?? []).filter((e) => e.keyword === b.keyword && fieldOf(e.instancePath.split('/').slice(1)) === b.field);
            expect(complaints, `${label} at the bound`).toEqual([]);
          }
        }
      }
    });
  }

  it('a movement correction is held to the bounds of its type (the merged movement is validated again)', async () => {
    const movementRoute = writeRoutes.find((r) => r.method === 'POST' && r.path.endsWith('/movements'))!;
    const inflow = variants(movementRoute.spec.body!.schema as Schema).find((v) => variantName(v, {}) === 'bird_inflow')!;
    const path = `/api/v1/flocks/${fx.ids.flockId}/cycles/${fx.ids.cycleId}/movements/${fx.ids.movementId}`;
    const bounds = boundCases(inflow).filter((b) => b.field !== 'body.date');
    expect(bounds.length).toBeGreaterThan(5);
    for (const b of bounds) {
      const field = b.field.slice('body.'.length).split('.')[0]!;
      expectNamed(
        await call('PATCH', path, { token: fx.manager.token, body: { [field]: b.over[field] } }),
        `PATCH movement ${b.field} ${b.keyword}`,
        b.field,
        b.message,
      );
    }
  });

  it('non-finite numbers (1e309 parses to Infinity) are refused with 400 naming each numeric field', async () => {
    let checked = 0;
    for (const r of writeRoutes) {
      const auth = await authFor(r);
      for (const v of variants(r.spec.body!.schema as Schema)) {
        const all = numericFields(v);
        // at most 40 fields a request: an answer names 50 fields at most
        for (let i = 0; i < all.length; i += 40) {
          const fields = all.slice(i, i + 40);
          const body = validBody(v);
          for (const p of fields) setAt(body, p, '__INFINITY__');
          const res = await call(r.method, fill(r.path, fx.ids), { ...auth, rawBody: JSON.stringify(body).replaceAll('"__INFINITY__"', '1e309') });
          for (const p of fields) expectNamed(res, `${r.label} [${variantName(v, r.spec.body!.schema as Schema)}]`, fieldOf(p));
          checked += fields.length;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  // Regression (found by this suite): per-cause deaths used to have no bounds (−50 raised birds alive; a string wrote NaN).
  it('daily record deaths per cause are bounded like the total: negative, too large or non-numeric counts are 400 and nothing moves', async () => {
    const base = `/api/v1/flocks/${fx.ids.flockId}/cycles/${fx.ids.cycleId}`;
    const alive = async () => (await call('GET', base, { token: fx.manager.token })).body.data.birds.alive as number;
    const before = await alive();
    const form = { date: fx.ids.date, feedKg: 0, waterLiters: 50, temperatureMinC: 31, temperatureMaxC: 33, humidityPct: 60 };
    for (const deaths of [{ disease: -50 }, { disease: 10_000_001 }, { heat: 'abc' }, { unknown: { nested: [1] } }]) {
      const res = await call('POST', `${base}/daily-records`, { token: fx.manager.token, body: { ...form, deaths } });
      expect(res.status, `${JSON.stringify(deaths)} → ${res.raw}`).toBe(400);
      expect(
        details(res).some((d) => d.field.startsWith('body.deaths')),
        JSON.stringify(deaths),
      ).toBe(true);
    }
    expect(await alive()).toBe(before);
  });
});

// -------------------------------------------------------------------------------------------------------

describe('deep nesting, many properties, huge query strings and path parameters', () => {
  const DEPTH = 20_000;
  const deep = '['.repeat(DEPTH) + ']'.repeat(DEPTH);

  it(`a body nested ${DEPTH} levels deep is 400 on every route (as the body, and under an unknown property)`, async () => {
    for (const r of writeRoutes) {
      const root = r.spec.body!.schema as Schema;
      const whole = await send(r, { rawBody: deep });
      expectNamed(whole, `${r.label} deep array body`, 'body');
      const sample = JSON.stringify(validBody(variants(root)[0]!));
      const nested = await send(r, { rawBody: `${sample.slice(0, -1)}${sample === '{}' ? '' : ','}"nested":${deep}}` });
      expect(nested.status, `${r.label} → ${nested.raw.slice(0, 300)}`).toBeLessThan(500);
      if (root.additionalProperties === false || Array.isArray(root.oneOf)) expectNamed(nested, `${r.label} deep property`, 'body.nested', 'is not allowed');
    }
  });

  it('thousands of unknown properties are 400 with at most 50 details (the answer stays small)', async () => {
    const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`p${i}`, 0]));
    for (const r of writeRoutes) {
      const root = r.spec.body!.schema as Schema;
      const res = await send(r, { body: { ...validBody(variants(root)[0]!), ...many } });
      expect(res.status, `${r.label} → ${res.raw.slice(0, 300)}`).toBeLessThan(500);
      if (res.status === 400) expect(details(res).length, r.label).toBeLessThanOrEqual(50);
      if (root.additionalProperties === false || Array.isArray(root.oneOf)) expect(res.status, r.label).toBe(400);
      expect(res.raw.length, r.label).toBeLessThan(10_000);
    }
  });

  it('a query string of 1000 unknown parameters (~60 KB) is 400 with at most 50 details on every route', async () => {
    const query = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`q${i}`, 'v'.repeat(50)]));
    for (const r of routes) {
      const res = await send(r, { query, ...(r.spec.body ? { body: validBody(variants(r.spec.body.schema as Schema)[0]!) } : {}) });
      expect(res.status, `${r.label} → ${res.raw.slice(0, 300)}`).toBe(400);
      expect(details(res).length, r.label).toBeGreaterThan(0);
      expect(details(res).length, r.label).toBeLessThanOrEqual(50);
    }
  });

  it('every query string parameter with a maxLength refuses one character more (400 naming it)', async () => {
    let checked = 0;
    for (const r of routes.filter((x) => x.spec.query)) {
      for (const [name, s] of Object.entries((r.spec.query!.schema.properties ?? {}) as Record<string, Schema>)) {
        if (typeof s.maxLength !== 'number') continue;
        expectNamed(
          await send(r, { query: { [name]: 'x'.repeat(s.maxLength + 1) } }),
          `${r.label}?${name}`,
          `query.${name}`,
          `must NOT have more than ${s.maxLength} characters`,
        );
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(listRoutes.length);
  });

  it('a 10 000-character path parameter is a 4xx on every route that has one', async () => {
    const huge = `A${randomBytes(5000).toString('hex')}`.slice(0, 10_000);
    for (const r of routes.filter((x) => x.path.includes('{'))) {
      for (const [, name] of r.path.matchAll(/\{(\w+)\}/g)) {
        const res = await call(r.method, fill(r.path, { ...fx.ids, [name!]: huge }), {
          ...(await authFor(r)),
          ...(r.spec.body ? { body: validBody(variants(r.spec.body.schema as Schema)[0]!) } : {}),
        });
        expect(res.status, `${r.label} {${name}} → ${res.raw.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${r.label} {${name}}`).toBeLessThan(500);
      }
    }
  });
});
