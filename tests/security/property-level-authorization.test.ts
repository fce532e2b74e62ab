/**
 * OWASP API3:2023 (broken object property level authorization), generated from the route table and each
 * route's request schema. Mass assignment: every create/update route gets its valid sample body plus the
 * properties a client must never set (role, capabilities, farmId, version, lock…, id, createdAt, PK/SK…)
 * wherever its schema does not declare them: a closed schema (additionalProperties: false) answers 400
 * naming each one; an open one (documented extras) must not store them. Every object nested in a body
 * schema must be closed too. Excessive data exposure: no response of a broad set of calls carries a
 * credential, a secret or a raw table key at any depth.
 */
import { ulid } from 'ulidx';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_CAPABILITIES, ROLE_CAPABILITIES } from '../../shared/domain/capabilities.js';
import { resetSettings } from '../../shared/config/env.js';
import { getUser, getUserIdByEmail } from '../../shared/db/users.js';
import { call, type CallOptions, type CallResult } from '../support/api.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { session } from './support/accounts.js';
import { farmFixture, type Fixture } from './support/fixture.js';
import { apiRoutes, fill, hasBody, knownParams, takesDeviceKey, type Route } from './support/routes.js';
import { declared, openObjects, validBody, variantName, variants, type Schema } from './support/schema.js';
import { leakedFragments, secretPaths } from './support/secrets.js';

const routes = await apiRoutes();
const writeRoutes = routes.filter(hasBody);

/**
 * Body schemas that accept extra properties on purpose, and why; every object nested inside them must
 * still be closed. A schema not listed here must be closed at every level.
 */
const OPEN_BY_DESIGN: Record<string, string> = {
  ValidateDailyDataBody: 'interface contract: "extra properties allowed"; nothing is stored',
  UpdateMovementBody: 'merged with the stored movement and re-validated against its type’s closed schema',
};

let fx: Fixture;
let otherFarmId: string;
const seen: Array<{ label: string; res: CallResult; allowed?: string[] }> = [];

/** call(), remembering the response for the secret scan. */
async function rec(label: string, method: string, path: string, opts: CallOptions = {}, allowed?: string[]): Promise<CallResult> {
  const res = await call(method, path, opts);
  seen.push({ label: `${label}: ${method} ${path} → ${res.status}`, res, ...(allowed ? { allowed } : {}) });
  return res;
}

/** The properties no client may set where a schema does not declare them, with attacker-chosen values. */
function forbidden(): Record<string, unknown> {
  const at = '2000-01-01T00:00:00.000Z';
  return {
    role: 'admin',
    capabilities: [...ALL_CAPABILITIES],
    explicitCapabilities: [...ALL_CAPABILITIES],
    farmId: otherFarmId,
    farmIds: [otherFarmId],
    version: 999,
    lock: { type: 'manual', reason: 'mass-assigned', at, by: null },
    locked: false,
    lockType: 'automatic',
    verified: true,
    passwordHash: 'scrypt$131072$8$1$bWFzcy1hc3NpZ25lZA$bWFzcy1hc3NpZ25lZA',
    password: 'mass-assigned-password',
    email: 'mass-assigned@example.com',
    id: ulid(),
    createdAt: at,
    updatedAt: at,
    createdBy: fx.admin.id,
    isDefault: true,
    status: 'archived',
    PK: `USER#${fx.admin.id}`,
    SK: 'PROFILE',
    GSI1PK: 'USERS',
    GSI1SK: 'mass-assigned',
    expiresAt: 1,
  };
}

const tokenFor = async (r: Route, who: { id: string; token: string }) => (r.path.endsWith('/logout') ? session(who.id) : who.token);
/** A token, or on sensor ingestion the fixture's device key (a device acts for no user). */
const authFor = async (r: Route, who: { id: string; token: string }): Promise<CallOptions> =>
  takesDeviceKey(r) ? { headers: { 'X-Device-Key': fx.deviceKey } } : { token: await tokenFor(r, who) };

/** The stored records a mass assignment could change: every GET of a farm-scoped record or a user. */
const recordReads = () =>
  routes.filter(
    (r) => r.method === 'GET' && r.path.includes('{') && knownParams(r.path, fx.ids) && /^\/api\/v1\/(config\/farms|flocks|admin\/users)/.test(r.path),
  );

async function snapshot(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const r of recordReads()) {
    const res = await rec('snapshot', 'GET', fill(r.path, fx.ids), { token: fx.admin.token });
    expect(res.status, `${r.label} ${res.raw}`).toBe(200);
    out[r.label] = res.body.data;
  }
  return out;
}

let before: Record<string, unknown>;
beforeAll(async () => {
  fx = await farmFixture('API3');
  // a device's registration is the one answer that shows its secret (once, by design: rotate-secret is the other)
  seen.push(...fx.responses.map((r) => (r.label === 'fixture POST /api/v1/iot/devices' ? { ...r, allowed: ['$.data.secret'] } : r)));
  otherFarmId = await otherFarm('API3 other farm');
  before = await snapshot();
});

describe('mass assignment on every create and update route', () => {
  it('covers every route with a body, and reads back every kind of stored record', () => {
    expect(writeRoutes.length).toBeGreaterThan(20);
    expect(recordReads().length).toBeGreaterThanOrEqual(8);
  });

  for (const r of writeRoutes) {
    const root = r.spec.body!.schema as Schema;
    const open = root.additionalProperties !== false && !Array.isArray(root.oneOf);
    it(`${r.label}: forbidden properties ${open ? 'are refused or not stored (open schema)' : 'are refused with 400 naming each'}`, async () => {
      const auth = await authFor(r, fx.admin);
      for (const variant of variants(root)) {
        const extra = Object.fromEntries(Object.entries(forbidden()).filter(([k]) => !declared(variant, root).has(k)));
        expect(Object.keys(extra).length, 'forbidden properties to send').toBeGreaterThan(10);
        const label = `${r.label} [${variantName(variant, root)}]`;
        if (!open) {
          expect(variant.additionalProperties, `${label}: closed schema`).toBe(false);
          const res = await rec('mass assignment', r.method, fill(r.path, fx.ids), { ...auth, body: { ...validBody(variant), ...extra } });
          expect(res.status, `${label} → ${res.raw}`).toBe(400);
          const named = new Set(
            (res.body.details as Array<{ field: string; message: string }>).filter((d) => d.message === 'is not allowed').map((d) => d.field),
          );
          for (const k of Object.keys(extra)) expect(named.has(`body.${k}`), `${label}: body.${k} named in ${res.raw}`).toBe(true);
          continue;
        }
        // open schema: one property at a time; refused naming it, or accepted without any trace of it
        for (const [k, v] of Object.entries(extra)) {
          const res = await rec('mass assignment', r.method, fill(r.path, fx.ids), { ...auth, body: { ...validBody(variant), [k]: v } });
          expect(res.status, `${label} +${k} → ${res.raw}`).toBeLessThan(500);
          if (res.status === 400) {
            expect(
              res.body.details.map((d: { field: string }) => d.field),
              `${label} +${k}`,
            ).toContain(`body.${k}`);
          } else {
            expect(res.status, `${label} +${k} → ${res.raw}`).toBeLessThan(300);
            expect(res.raw, `${label}: ${k} echoed`).not.toContain(JSON.stringify(k));
          }
        }
      }
    });
  }

  it('no stored record took any of those values: every record reads back exactly as before', async () => {
    expect(await snapshot()).toEqual(before);
  });

  it('a non-admin cannot change its own role, capabilities, lock, verification or farms through any route', async () => {
    const me = fx.manager;
    const escalation = {
      role: 'admin',
      capabilities: [...ALL_CAPABILITIES],
      explicitCapabilities: [...ALL_CAPABILITIES],
      verified: true,
      locked: false,
      farmIds: [otherFarmId],
    };
    const ids = { ...fx.ids, userId: me.id };
    for (const r of writeRoutes) {
      const root = r.spec.body!.schema as Schema;
      const res = await rec('self escalation', r.method, fill(r.path, ids), {
        ...(await authFor(r, me)),
        body: { ...validBody(variants(root)[0]!), ...escalation },
      });
      const label = `${r.label} → ${res.raw}`;
      expect(res.status, label).toBeLessThan(500);
      if (res.status < 300) expect(OPEN_BY_DESIGN[String(root.$id)], `${label}: accepted`).toBeDefined();
    }
    const stored = (await rec('self escalation', 'GET', `/api/v1/admin/users/${me.id}`, { token: fx.admin.token })).body.data;
    expect(stored).toMatchObject({ role: 'manager', explicitCapabilities: null, farmIds: [fx.ids.farmId], verified: true, locked: false, version: 1 });
    const mine = (await rec('self escalation', 'POST', '/api/v1/auth/verify-token', { token: me.token, body: {} })).body.data.user;
    expect(mine.capabilities).toEqual([...ROLE_CAPABILITIES.manager]);
    expect((await call('GET', '/api/v1/admin/users', { token: me.token })).status).toBe(403);
  });

  it('signup cannot choose role, capabilities, verification, lock or farms: 400 naming the field, and no account', async () => {
    const attempts: Record<string, unknown> = {
      role: 'admin',
      capabilities: ['manage_users'],
      explicitCapabilities: ['manage_users'],
      verified: true,
      locked: false,
      farmIds: [fx.ids.farmId!],
      id: ulid(),
      createdAt: '2000-01-01T00:00:00.000Z',
      passwordHash: 'scrypt$1$1$1$x$y',
    };
    for (const [k, v] of Object.entries(attempts)) {
      const email = uniqueEmail('signup-escalation');
      const res = await rec('signup escalation', 'POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD, name: 'Escalation', [k]: v } });
      expect(res.status, `${k} → ${res.raw}`).toBe(400);
      expect(res.body.details, k).toEqual([{ field: `body.${k}`, message: 'is not allowed' }]);
      expect(await getUserIdByEmail(email), `${k}: account created`).toBeUndefined();
    }
    const plain = uniqueEmail('signup-plain');
    const ok = await rec('signup', 'POST', '/api/v1/auth/signup', { body: { email: plain, password: PASSWORD, name: 'Plain' } }, ['$.data.verificationToken']);
    expect(ok.status).toBe(202);
    expect(await getUser((await getUserIdByEmail(plain))!)).toMatchObject({
      role: 'viewer',
      explicitCapabilities: null,
      verified: false,
      locked: false,
      farmIds: [],
    });
  });

  it('writable references are authorized by value: a farm or house the caller cannot see is refused like a missing one', async () => {
    const token = fx.manager.token;
    const foreignHouse = (
      await call('POST', `/api/v1/config/farms/${otherFarmId}/houses`, { token: fx.admin.token, body: { name: 'Foreign', usableAreaM2: 10, capacity: 10 } })
    ).body.data.id;
    const missingFarm = await rec('reference', 'POST', '/api/v1/flocks', { token, body: { name: 'Elsewhere', birdType: 'broiler', farmId: 'no-such-farm' } });
    const foreignFarm = await rec('reference', 'POST', '/api/v1/flocks', { token, body: { name: 'Elsewhere', birdType: 'broiler', farmId: otherFarmId } });
    // the same 404 as a missing record (every body reference: body-references.test.ts)
    expect([foreignFarm.status, missingFarm.status]).toEqual([404, 404]);
    expect(foreignFarm.body).toEqual({ error: `Farm ${otherFarmId} not found` });
    expect(missingFarm.body).toEqual({ error: 'Farm no-such-farm not found' });
    const moved = await rec('reference', 'PATCH', `/api/v1/flocks/${fx.ids.flockId}`, { token, body: { houseId: foreignHouse } });
    expect(moved.status, moved.raw).toBe(404);
    expect(moved.body).toEqual({ error: `House ${foreignHouse} not found` });
    const flocks = await call('GET', '/api/v1/flocks', { token: fx.admin.token, query: { farmId: otherFarmId } });
    expect(flocks.body.data).toEqual([]);
  });
});

describe('every object inside a body schema is closed (generated from the schemas)', () => {
  for (const r of writeRoutes) {
    const root = r.spec.body!.schema as Schema;
    const open = openObjects(root).filter((p) => !(p === 'body' && OPEN_BY_DESIGN[String(root.$id)]));
    it(`${r.label}${OPEN_BY_DESIGN[String(root.$id)] ? ' (top level open by design)' : ''}: no object lets unknown properties through`, () => {
      expect(open).toEqual([]);
    });
  }

  // Regression (found by this suite): `deaths` per cause used to compile to an open object.
  it('a daily record refuses unknown keys under deaths (400 naming them) and stores nothing', async () => {
    const base = `/api/v1/flocks/${fx.ids.flockId}/cycles/${fx.ids.cycleId}`;
    const res = await call('POST', `${base}/daily-records`, {
      token: fx.manager.token,
      body: {
        date: fx.ids.date,
        deaths: { disease: 1, role: 'admin', PK: 'USER#x' },
        feedKg: 0,
        waterLiters: 50,
        temperatureMinC: 31,
        temperatureMaxC: 33,
        humidityPct: 60,
      },
    });
    expect(res.status, res.raw).toBe(400);
    expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(['body.deaths.role', 'body.deaths.PK']));
  });

  // Regression (found by this suite): `grades` used to let any key and value through.
  it('an egg collection refuses grade names outside the pattern and non-integer counts (400) and stores nothing', async () => {
    const base = `/api/v1/flocks/${fx.ids.flockId}/cycles/${fx.ids.cycleId}`;
    const res = await call('POST', `${base}/movements`, {
      token: fx.manager.token,
      body: { type: 'egg_collection', date: fx.ids.date, totalEggs: 10, grades: { 'not a grade!': { role: 'admin', nested: [1, 2, 3] } } },
    });
    expect(res.status, res.raw).toBe(400);
    const stored = await call('GET', `${base}/movements`, { token: fx.manager.token, query: { type: 'egg_collection' } });
    expect(stored.raw).not.toContain('not a grade!');
  });
});

describe('no credential, secret or table key in any response', () => {
  it('walks every response of a broad set of calls: no secret-named property at any depth, no hash, key or secret value', async () => {
    const { admin, manager, ids } = fx;
    // every GET route on the seeded farm, as the admin and as the farm's manager, lists also one item per page
    for (const r of routes.filter((x) => x.method === 'GET')) {
      for (const who of [admin, manager]) {
        await rec('read', 'GET', fill(r.path, ids), { token: who.token });
        if (r.spec.query && 'limit' in ((r.spec.query.schema.properties ?? {}) as object))
          await rec('read', 'GET', fill(r.path, ids), { token: who.token, query: { limit: '1' } });
      }
    }
    // accounts: sign-up (outside and inside production), verification, sign-in, token check, sign-out
    const email = uniqueEmail('scan');
    const signup = await rec('auth', 'POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD, name: 'Scan' } }, ['$.data.verificationToken']);
    const verificationToken = signup.body.data.verificationToken as string;
    await rec('auth', 'POST', '/api/v1/auth/verify-email', { body: { token: verificationToken } });
    process.env.STAGE = 'prod';
    resetSettings();
    try {
      const prod = await rec('auth (STAGE=prod)', 'POST', '/api/v1/auth/signup', {
        body: { email: uniqueEmail('scan-prod'), password: PASSWORD, name: 'Scan' },
      });
      expect(prod.status).toBe(202);
      expect(prod.body.data).not.toHaveProperty('verificationToken');
    } finally {
      process.env.STAGE = 'test';
      resetSettings();
    }
    const login = await rec('auth', 'POST', '/api/v1/auth/login', { body: { email, password: PASSWORD } }, ['$.token']);
    expect(login.status).toBe(200);
    const issued = login.body.token as string;
    await rec('auth', 'POST', '/api/v1/auth/login', { body: { email, password: 'wrong-password' } });
    await rec('auth', 'POST', '/api/v1/auth/verify-token', { token: issued, body: {} });
    await rec('auth', 'POST', '/api/v1/auth/logout', { token: issued, body: {} });
    await rec('auth', 'POST', '/api/v1/auth/verify-token', { token: issued, body: {} });
    // a registered address: the same answer, its token a random one that verifies nothing
    await rec('auth', 'POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD, name: 'Again' } }, ['$.data.verificationToken']);
    // the admin control plane: create (and its idempotent replay), read, list, change, delete, audit
    const body = { email: uniqueEmail('scan-admin'), password: PASSWORD, name: 'Scanned', role: 'worker', farmIds: [ids.farmId] };
    const created = await rec('admin', 'POST', '/api/v1/admin/users', { token: admin.token, body, headers: { 'Idempotency-Key': 'scan-user' } });
    expect(created.status).toBe(201);
    const replay = await rec('admin', 'POST', '/api/v1/admin/users', { token: admin.token, body, headers: { 'Idempotency-Key': 'scan-user' } });
    expect(replay.body).toEqual(created.body);
    const userId = created.body.data.id as string;
    await rec('admin', 'GET', `/api/v1/admin/users/${userId}`, { token: admin.token });
    await rec('admin', 'PATCH', `/api/v1/admin/users/${userId}`, { token: admin.token, body: { role: 'viewer', locked: true } });
    await rec('admin', 'GET', '/api/v1/admin/users', { token: admin.token, query: { limit: '100' } });
    await rec('admin', 'DELETE', `/api/v1/admin/users/${userId}`, { token: admin.token });
    await rec('admin', 'GET', '/api/v1/admin/audit', { token: admin.token, query: { limit: '100' } });
    // farm records: updates, locks, an idempotent create and its replay, errors of every kind
    const base = `/api/v1/flocks/${ids.flockId}/cycles/${ids.cycleId}`;
    const flock = { name: 'Scan flock', birdType: 'layer', farmId: ids.farmId };
    await rec('farm', 'POST', '/api/v1/flocks', { token: manager.token, body: flock, headers: { 'Idempotency-Key': 'scan-flock' } });
    await rec('farm', 'POST', '/api/v1/flocks', { token: manager.token, body: flock, headers: { 'Idempotency-Key': 'scan-flock' } });
    await rec('farm', 'PATCH', `/api/v1/flocks/${ids.flockId}`, { token: manager.token, body: { notes: 'scanned' } });
    await rec('farm', 'PUT', `${base}/movements/${ids.movementId}/lock`, { token: manager.token, body: { reason: 'scan' } });
    await rec('farm', 'GET', `${base}/movements/${ids.movementId}`, { token: manager.token });
    await rec('farm', 'PUT', `${base}/movements/${ids.movementId}/unlock`, { token: manager.token, body: { reason: 'scan' } });
    await rec('error', 'GET', `/api/v1/flocks/${ulid()}`, { token: manager.token });
    await rec('error', 'GET', '/api/v1/admin/users', { token: manager.token });
    await rec('error', 'GET', '/api/v1/admin/users', { token: 'not.a.token' });
    await rec('error', 'DELETE', '/api/v1/auth/login', {});
    await rec('error', 'GET', '/api/v1/no-such-route', {});
    await rec('error', 'POST', '/api/v1/flocks', { token: manager.token, rawBody: '{"name":' });

    const secretValues = [process.env.JWT_SECRET!, PASSWORD, admin.token, manager.token, issued, verificationToken];
    const problems: string[] = [];
    for (const { label, res, allowed = [] } of seen) {
      const own = new Set<string>([
        ...(allowed.includes('$.token') ? [issued] : []),
        ...(allowed.includes('$.data.verificationToken') ? [String(res.body?.data?.verificationToken)] : []),
      ]);
      const values = secretValues.filter((v) => !own.has(v));
      // the OpenAPI document describes request bodies (property names like `password`): its values are scanned, not its keys
      if (res.body !== undefined && !label.includes(' /openapi.json')) for (const p of secretPaths(res.body, allowed)) problems.push(`${label}: property ${p}`);
      for (const f of leakedFragments(res.raw ?? '', values)) problems.push(`${label}: body holds ${f}`);
      for (const [h, v] of Object.entries(res.headers)) for (const f of leakedFragments(String(v), values)) problems.push(`${label}: header ${h} holds ${f}`);
    }
    expect(seen.length).toBeGreaterThan(150);
    expect(problems).toEqual([]);
  });
});
