/**
 * OWASP API1:2023 (broken object-level authorization) for the ids a body carries, generated from the
 * request schemas: every body field named `…Id`, at any depth, of every route's body schema and of every
 * movement type (as recorded by POST …/movements and as corrected by PATCH …/movements/{movementId}).
 * A user of farm B (with every capability a non-admin may hold) sends a valid body of farm B with that one
 * field set to farm A's real id, then to a made-up id: both answers are 404, name the id sent, and are
 * the same but for it; another farm's record is a missing one. The few `…Id` fields that are not a
 * reference to a record of the caller's farm are in NOT_REFERENCES, each with its reason and the answer
 * it gets instead (still the same for A's id and a made-up one). A new route or field is covered without
 * editing this file; a new route whose valid body needs more than its schema's sample gets a BASES entry.
 */
import { ulid } from 'ulidx';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ONLY, ALL_CAPABILITIES } from '../../shared/domain/capabilities.js';
import { call, type CallResult } from '../support/api.js';
import { account, type Account } from './support/accounts.js';
import { day, farmFixture, type Fixture } from './support/fixture.js';
import { apiRoutes, fill, hasBody, type Route } from './support/routes.js';
import { fieldOf, idFields, setAt, validBody, variantName, variants, type Schema } from './support/schema.js';

type Path = Array<string | number>;
type Body = Record<string, unknown>;

const routes = (await apiRoutes()).filter(hasBody);
const routeOf = (label: string) => routes.find((r) => r.label === label)!;
const MOVEMENTS = routeOf('POST /api/v1/flocks/{flockId}/cycles/{cycleId}/movements');
const CORRECTION = routeOf('PATCH /api/v1/flocks/{flockId}/cycles/{cycleId}/movements/{movementId}');
const TRANSFERS = 'POST /api/v1/sharing/transfers';

/**
 * `…Id` fields that are not a reference to a record of the caller's farm, why, and what they answer
 * instead (`same`: whatever it is, the same for farm A's real id and a made-up one).
 */
const NOT_REFERENCES: Record<string, { why: string; answer: 'same' | 400 | 409 }> = {
  [`${TRANSFERS} body.to.farmId`]: {
    why: 'the receiving farm is another farm by design; it is not looked up, so a request is accepted alike for a real and a made-up farm',
    answer: 'same',
  },
  [`${TRANSFERS} body.to.flockId`]: {
    why: 'a flock the sender proposes on the receiving farm, kept as given and not looked up (accepted alike); the approver chooses the flock and cycle',
    answer: 'same',
  },
  'POST /api/v1/procurement/orders/{orderId}/receipts body.lines.0.lineId': {
    why: 'a line of the order named in the path, not a record of its own: an unknown line is a 400 naming it',
    answer: 400,
  },
  [`${CORRECTION.label} body.counterpartFlockId`]: {
    why: 'a transfer between two flocks is never corrected (delete it, both sides go, and record it again): 409 whatever the id',
    answer: 409,
  },
};

/** What a valid body of a route needs beyond its schema's sample (B's own records are set by idOf; a field set to undefined stays out). */
const BASES: Record<string, (fx: Fixture, c: Case) => Body> = {
  'POST /api/v1/rules': () => RULE,
  'PUT /api/v1/rules/{ruleId}': () => RULE,
  'POST /api/v1/schedules': () => ({ kind: 'inspection' }),
  [TRANSFERS]: (fx, c) =>
    c.path[0] === 'items'
      ? { kind: 'equipment', from: { farmId: fx.ids.farmId }, to: { farmId: fx.more.partnerFarmId } }
      : { kind: 'birds', quantity: 1, to: { farmId: fx.more.partnerFarmId }, items: undefined },
};
const RULE = {
  name: 'Mortality',
  input: 'dailyMortalityPct',
  window: 'P1D',
  aggregation: 'last',
  condition: { op: '>', value: 1 },
  severity: 'warning',
  actions: ['raise_anomaly'],
};

interface Case {
  label: string;
  key: string;
  route: Route;
  /** The movement type (movement routes). */
  type?: string;
  path: Path;
}

/** Every `…Id` field of every body: each route's variants, and the corrections of each movement type. */
function cases(): Case[] {
  const out: Case[] = [];
  for (const route of routes) {
    const root = route.spec.body!.schema as Schema;
    for (const variant of variants(root)) {
      const type = route === MOVEMENTS ? variantName(variant, root) : undefined;
      for (const path of idFields(variant)) {
        for (const r of type ? [route, CORRECTION] : [route]) {
          const key = `${r.label} ${fieldOf(path)}`;
          out.push({ label: `${key}${type ? ` (${type})` : ''}`, key, route: r, type, path });
        }
      }
    }
  }
  return out;
}
const all = cases();

let A: Fixture;
let B: Fixture;
let caller: Account;

beforeAll(async () => {
  [A, B] = await Promise.all([farmFixture('refs A'), farmFixture('refs B')]);
  caller = await account({ role: 'manager', farmIds: [B.ids.farmId!], explicitCapabilities: ALL_CAPABILITIES.filter((c) => !ADMIN_ONLY.has(c)) });
});

/** The fixture's record a field refers to, by its name (the receiving end of a transfer: the partner farm, a made-up flock). */
function idOf(fx: Fixture, c: Case, path = c.path): string {
  const name = String(path.at(-1));
  if (c.route.label === TRANSFERS && path[0] === 'to') return name === 'farmId' ? fx.more.partnerFarmId! : ulid();
  const byName: Record<string, string | undefined> = {
    ...fx.ids,
    ...fx.more,
    deviceId: fx.more.scaleId, // the one body deviceId is a bird scale's
    assigneeId: fx.ids.userId,
    counterpartFlockId: fx.more.secondFlockId,
  };
  const id = byName[name];
  if (!id) throw new Error(`${c.label}: the fixture has no record for ${name}`);
  return id;
}

/** The route's path for farm B, where it needs another record than the one named like its parameter. */
function pathOf(c: Case, ids: Record<string, string> = {}): string {
  const own: Record<string, string> = { ...B.ids, ...ids };
  if (c.route.path.endsWith('/receipts')) own.orderId = B.more.placedOrderId!;
  if (c.route.path.endsWith('/approve')) own.transferId = B.more.incomingTransferId!;
  if (c.route.path.startsWith('/api/v1/schedules/') && c.route.path.endsWith('/complete')) own.scheduleId = B.more.weighingScheduleId!;
  return fill(c.route.path, own);
}

/** A valid body of farm B for the case (a movement of its type for a correction): every `…Id` field names B's own record. */
function baseBody(c: Case): Body {
  const route = c.route === CORRECTION ? MOVEMENTS : c.route;
  const root = route.spec.body!.schema as Schema;
  const variant = c.type ? variants(root).find((v) => variantName(v, root) === c.type)! : root;
  const base = BASES[route.label]?.(B, c) ?? {};
  const body: Body = { ...validBody(variant), ...base };
  if (typeof body.date === 'string') body.date = day(0);
  const paths = idFields(variant).filter((p) => !(Object.hasOwn(base, p[0]!) && base[p[0]!] === undefined));
  for (const [k, v] of Object.entries(body)) if (v === undefined) delete body[k];
  for (const path of paths) setAt(body, path, idOf(B, c, path));
  // schemas that take one of several ids (maxProperties): only the one under test
  const max = typeof variant.maxProperties === 'number' ? variant.maxProperties : Infinity;
  for (const path of paths) if (Object.keys(body).length > max && path.length === 1 && path[0] !== c.path[0]) delete body[path[0]!];
  return body;
}

/** Sends farm B's body with the field set to `id`; a correction first records the movement it corrects. */
async function send(c: Case, id: string): Promise<CallResult> {
  const body = baseBody(c);
  if (c.route !== CORRECTION) return call(c.route.method, pathOf(c), { token: caller.token, body: setAt(body, c.path, id) });
  const recorded = await call('POST', pathOf({ ...c, route: MOVEMENTS }), { token: caller.token, body });
  expect(recorded.status, `${c.label}: the movement to correct ${recorded.raw}`).toBe(201);
  return call('PATCH', pathOf(c, { movementId: recorded.body.data.id }), { token: caller.token, body: { [String(c.path[0])]: id } });
}

describe('every id a body carries names a record of the caller’s farm, or answers as a missing one', () => {
  it('covers every `…Id` field of every body schema and movement type', () => {
    expect(all.length).toBeGreaterThan(60);
    expect(all.map((c) => c.key)).toEqual(expect.arrayContaining(Object.keys(NOT_REFERENCES)));
  });

  for (const c of all) {
    const exception = NOT_REFERENCES[c.key];
    const expected = exception ? `not a reference: ${exception.answer === 'same' ? 'the same answer' : exception.answer} for both` : '404 for both, alike';
    it(`${c.label}: farm A’s id and a made-up id → ${expected}`, async () => {
      const [realId, madeUpId] = [idOf(A, c), ulid()];
      const [real, madeUp] = [await send(c, realId), await send(c, madeUpId)];
      const label = `${c.label}: ${real.status} ${real.raw} / ${madeUp.status} ${madeUp.raw}`;
      expect(real.status, label).toBe(madeUp.status);
      if (exception?.answer === 'same') return;
      expect(real.raw.replaceAll(realId, '<id>'), label).toBe(madeUp.raw.replaceAll(madeUpId, '<id>'));
      expect(real.status, label).toBe(exception ? exception.answer : 404);
      if (!exception) expect(real.body.error, label).toContain(realId);
    });
  }
});
