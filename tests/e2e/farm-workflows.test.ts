/**
 * e2e: the farm workflows (schedules, purchasing, transfers) over real HTTP against serverless-offline and
 * DynamoDB Local, every response checked against the closed schema of its operation (checkedClient).
 *
 * What it proves: a vaccination programme applied to a cycle puts its steps on the farm's agenda on the
 * farm's own calendar, and completing an occurrence writes the `vaccination` movement into the cycle's
 * ledger (once: a second completion is 409 naming the date); a feed order received in two partial
 * receipts raises the farm's feed stock by exactly the kg received, moves the order to partially_received
 * then received, and the supplier's reliability is the analytics supplier score of the cycle, both equal to
 * what the ledger's feed_delivery movements imply; 500 birds transferred between two farms (requested by the
 * sender, approved by the receiver, completed) move both cycle summaries and the farms' bird stock exactly as
 * the ledger's movements add up; a farm with an open disease-suspicion incident cannot send (409 naming the
 * incident, at request and at completion) and nothing is written.
 *
 * The scenario: the admin creates four farms, each with its manager; the managers create the flocks and
 * place the chicks. Hillside (Pacific/Auckland, so its calendar runs ahead of UTC) has 10,000 broilers
 * placed 20 farm days ago: the typical broiler programme is applied, the day-1 and day-14 vaccinations are
 * done, and 10,000 kg of grower is ordered and received as 6,000 kg then 4,000 kg (the second wet).
 * Riverside sends 500 of its 4,000 broilers (35 dead, 5 culled) to Meadow (1,200 placed). Quarantine has
 * an approved transfer to Meadow when it opens a disease-suspicion incident.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedClient } from '../support/contract.js';
import { client, type Res } from '../support/http.js';
import { startOffline, type Offline } from '../support/offline.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read any field

const DAY_MS = 86_400_000;
/** The calendar date of `now` in an IANA time zone (YYYY-MM-DD). */
const localToday = (timezone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
/** `date` moved by `n` days. */
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);
const UTC_TODAY = new Date().toISOString().slice(0, 10);

const HILLSIDE_TZ = 'Pacific/Auckland';
const HILLSIDE_TODAY = localToday(HILLSIDE_TZ);
/** Hillside's chicks were placed 20 days ago on its calendar: age 0 is the placement date. */
const PLACEMENT_AGE_TODAY = 20;
const HILLSIDE_START = addDays(HILLSIDE_TODAY, -PLACEMENT_AGE_TODAY);
const ageDate = (age: number) => addDays(HILLSIDE_START, age);

const ORDERED_KG = 10_000;
const RECEIPTS = [
  { kg: 6_000, qualityIssues: [] as string[] },
  { kg: 4_000, qualityIssues: ['wet'] },
];

/** Birds alive as the ledger implies them: what came in less what went out. */
const BIRDS_IN = ['bird_inflow', 'bird_transfer_in'];
const BIRDS_OUT = ['bird_mortality', 'bird_cull', 'bird_sale', 'bird_transfer_out'];
const aliveFromLedger = (movements: Json[]) =>
  movements.reduce((a, m) => a + (BIRDS_IN.includes(m.type) ? m.quantity : BIRDS_OUT.includes(m.type) ? -m.quantity : 0), 0);
const sumOf = (movements: Json[], type: string, field = 'quantity') => movements.filter((m) => m.type === type).reduce((a, m) => a + m[field], 0);
const pct = (part: number, whole: number) => Math.round((part / whole) * 100 * 100) / 100;

describe('farm workflows over HTTP: vaccination programme, a feed order received in parts, transfers between farms', () => {
  let api: Offline;
  const http = checkedClient(client(() => api));
  let adminToken: string;

  const expectStatus = (res: Res, status: number, what: string) => expect(res.status, `${what}: ${res.text}`).toBe(status);

  interface Farm {
    farmId: string;
    token: string;
    managerId: string;
    flockId: string;
    cycleId: string;
    base: string;
  }
  const farms: Record<'hillside' | 'riverside' | 'meadow' | 'quarantine', Farm> = {} as never;

  /** A farm (by the admin) with its manager, who creates a broiler flock, its cycle and places the chicks. */
  async function farmWithFlock(key: string, name: string, timezone: string, start: string, birds: number, extra: Json[] = []): Promise<Farm> {
    const farm = await http('POST', '/api/v1/config/farms', { token: adminToken, body: { name, timezone } });
    expectStatus(farm, 201, `POST farm ${name}`);
    const farmId: string = farm.body.data.id;
    const manager = { email: `manager@${key}.example.com`, password: `${key}-manager-password-1` };
    const user = await http('POST', '/api/v1/admin/users', {
      token: adminToken,
      body: { ...manager, name: `${name} manager`, role: 'manager', farmIds: [farmId] },
    });
    expectStatus(user, 201, `POST user ${manager.email}`);
    const login = await http('POST', '/api/v1/auth/login', { body: manager });
    expectStatus(login, 200, `login ${manager.email}`);
    const token: string = login.body.token;
    const flock = await http('POST', '/api/v1/flocks', {
      token,
      body: { name: `${name} batch 1`, birdType: 'broiler', breed: 'Ross 308', farmId, hatchDate: start },
    });
    expectStatus(flock, 201, `POST flock of ${name}`);
    const flockId: string = flock.body.data.id;
    const cycle = await http('POST', `/api/v1/flocks/${flockId}/cycles`, { token, body: { startDate: start, targetAgeDays: 42 } });
    expectStatus(cycle, 201, `POST cycle of ${name}`);
    const cycleId: string = cycle.body.data.id;
    const base = `/api/v1/flocks/${flockId}/cycles/${cycleId}`;
    for (const body of [{ type: 'bird_inflow', date: start, quantity: birds, averageWeightGrams: 42 }, ...extra])
      expectStatus(await http('POST', `${base}/movements`, { token, body }), 201, `POST ${body.type} in ${name}`);
    return { farmId, token, managerId: user.body.data.id, flockId, cycleId, base };
  }

  const summary = async (f: Farm): Promise<Json> => {
    const res = await http('GET', f.base, { token: f.token });
    expectStatus(res, 200, 'GET cycle summary');
    return res.body.data;
  };
  const cycleMovements = async (f: Farm, type?: string): Promise<Json[]> => {
    const res = await http('GET', `${f.base}/movements?limit=100${type ? `&type=${type}` : ''}`, { token: f.token });
    expectStatus(res, 200, 'GET cycle movements');
    expect(res.body.page.nextCursor).toBeNull();
    return res.body.data;
  };
  const farmMovements = async (f: Farm): Promise<Json[]> => {
    const res = await http('GET', `/api/v1/inventory/movements?farmId=${f.farmId}&limit=100`, { token: f.token });
    expectStatus(res, 200, 'GET farm movements');
    expect(res.body.page.nextCursor).toBeNull();
    return res.body.data;
  };
  const stock = async (f: Farm): Promise<Json> => {
    const res = await http('GET', `/api/v1/inventory/stock?farmId=${f.farmId}`, { token: f.token });
    expectStatus(res, 200, 'GET stock');
    return res.body.data;
  };
  const feedKg = (s: Json, feedType: string): number => s.feed.byType.find((t: Json) => t.feedType === feedType)?.kg ?? 0;

  beforeAll(async () => {
    api = await startOffline();
    const admin = await http('POST', '/api/v1/auth/login', { body: { email: api.admin.email, password: api.admin.password } });
    expectStatus(admin, 200, 'admin login');
    adminToken = admin.body.token;
    farms.hillside = await farmWithFlock('hillside', 'Hillside', HILLSIDE_TZ, HILLSIDE_START, 10_000);
    farms.riverside = await farmWithFlock('riverside', 'Riverside', 'Europe/Amsterdam', addDays(UTC_TODAY, -20), 4_000, [
      { type: 'bird_mortality', date: addDays(UTC_TODAY, -5), quantity: 35, cause: 'heat' },
      { type: 'bird_cull', date: addDays(UTC_TODAY, -4), quantity: 5, reason: 'leg problems' },
    ]);
    farms.meadow = await farmWithFlock('meadow', 'Meadow', 'UTC', addDays(UTC_TODAY, -10), 1_200);
    farms.quarantine = await farmWithFlock('quarantine', 'Quarantine', 'UTC', addDays(UTC_TODAY, -15), 3_000);
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('the broiler programme applied to a cycle: the day-1 and day-14 vaccinations completed from the agenda are in the ledger, done, and done once', async () => {
    const f = farms.hillside;
    const token = f.token;
    const programmes = await http('GET', '/api/v1/schedules/programmes', { token });
    expectStatus(programmes, 200, 'GET programmes');
    const programme = (programmes.body.data as Json[]).find((p) => p.id === 'broiler-typical')!;
    expect(programme).toMatchObject({ birdType: 'broiler' });
    // the typical broiler programme (shared/domain/schedules/programmes.ts): certificate check at age 0, ND + IB on
    // day 1, Gumboro on day 14, the ND booster on day 21 — days 1 and 14 exist exactly, no nearest step needed
    const vaccinations = (programme.steps as Json[]).filter((s) => s.kind === 'vaccination');
    const step1 = vaccinations.find((s) => s.ageDays.includes(1))!;
    const step14 = vaccinations.find((s) => s.ageDays.includes(14))!;
    expect(step1, JSON.stringify(programme.steps)).toBeDefined();
    expect(step14, JSON.stringify(programme.steps)).toBeDefined();
    const booster = vaccinations.find((s) => Math.min(...s.ageDays) > PLACEMENT_AGE_TODAY);

    const applied = await http('POST', '/api/v1/schedules/programmes/broiler-typical/apply', {
      token,
      headers: { 'Idempotency-Key': 'hillside-broiler-programme' },
      body: { flockId: f.flockId, cycleId: f.cycleId },
    });
    expectStatus(applied, 201, 'POST apply programme');
    const schedules = applied.body.data.schedules as Json[];
    expect(schedules).toHaveLength(programme.steps.length);
    const scheduleOf = (step: Json) => schedules.find((s) => s.programme?.step === step.id)!;
    expect(scheduleOf(step1)).toMatchObject({ farmId: f.farmId, flockId: f.flockId, cycleId: f.cycleId, kind: 'vaccination', timing: { ageDays: [1] } });
    expect(scheduleOf(step14)).toMatchObject({ kind: 'vaccination', timing: { ageDays: [14] } });

    // the agenda from the placement to a week ahead, on the farm's calendar (Auckland runs ahead of UTC)
    const agendaUrl = `/api/v1/schedules/agenda?farmId=${f.farmId}&from=${HILLSIDE_START}&to=${addDays(HILLSIDE_TODAY, 7)}`;
    const before = await http('GET', agendaUrl, { token });
    expectStatus(before, 200, 'GET agenda');
    expect(before.body.data).toMatchObject({ timezone: HILLSIDE_TZ, today: HILLSIDE_TODAY, from: HILLSIDE_START });
    const occurrence = (agenda: Json, step: Json, date: string) =>
      (agenda.occurrences as Json[]).find((o) => o.scheduleId === scheduleOf(step).id && o.date === date);
    const day1 = occurrence(before.body.data, step1, ageDate(1))!;
    const day14 = occurrence(before.body.data, step14, ageDate(14))!;
    expect(day1, JSON.stringify(before.body.data.occurrences)).toMatchObject({ kind: 'vaccination', status: 'overdue', cycleId: f.cycleId, outcome: null });
    expect(day14).toMatchObject({ kind: 'vaccination', status: 'overdue', outcome: null });
    if (booster) {
      // the day-21 booster is tomorrow on the farm's calendar: due, not overdue
      const b = occurrence(before.body.data, booster, ageDate(booster.ageDays[0]));
      expect(b).toMatchObject({ status: 'due', date: addDays(HILLSIDE_TODAY, booster.ageDays[0] - PLACEMENT_AGE_TODAY) });
    }

    // complete both from the agenda (the day-14 one with the batch actually used)
    const complete = (o: Json, body: Json, key?: string) =>
      http('POST', `/api/v1/schedules/${o.scheduleId}/occurrences/${o.date}/complete`, { token, body, headers: key ? { 'Idempotency-Key': key } : {} });
    const done1 = await complete(day1, { notes: 'Spray cabinet, all houses' }, 'hillside-vacc-day1');
    expectStatus(done1, 201, 'complete day 1');
    const done14 = await complete(day14, { data: { batchNumber: 'IBD-2291' } }, 'hillside-vacc-day14');
    expectStatus(done14, 201, 'complete day 14');
    expect(done1.body.data).toMatchObject({ status: 'done', date: ageDate(1), movement: { type: 'vaccination', date: ageDate(1) } });
    expect(done14.body.data).toMatchObject({
      status: 'done',
      date: ageDate(14),
      movement: { type: 'vaccination', date: ageDate(14), batchNumber: 'IBD-2291' },
    });
    // a retry with the same Idempotency-Key replays the first answer and writes nothing
    const retry = await complete(day1, { notes: 'Spray cabinet, all houses' }, 'hillside-vacc-day1');
    expectStatus(retry, 201, 'retried completion');
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data.movement.id).toBe(done1.body.data.movement.id);

    // the cycle's ledger: the two vaccination movements, with the dates and the vaccines of the steps
    const ledger = await cycleMovements(f, 'vaccination');
    expect(ledger.map((m) => [m.id, m.date, m.vaccine, m.method, m.dose]).sort((a, b) => String(a[1]).localeCompare(String(b[1])))).toEqual([
      [done1.body.data.movement.id, ageDate(1), step1.details.vaccine, step1.details.method, step1.details.dose],
      [done14.body.data.movement.id, ageDate(14), step14.details.vaccine, step14.details.method, step14.details.dose],
    ]);
    expect(ledger.find((m) => m.date === ageDate(1))).toMatchObject({ notes: 'Spray cabinet, all houses', flockId: f.flockId, cycleId: f.cycleId });
    expect(ledger.find((m) => m.date === ageDate(14))).toMatchObject({ batchNumber: 'IBD-2291' });
    expect((await summary(f)).vaccinations).toBe(2);

    // the agenda shows them done, each naming its movement
    const after = await http('GET', agendaUrl, { token });
    expectStatus(after, 200, 'GET agenda after');
    expect(occurrence(after.body.data, step1, ageDate(1))).toMatchObject({
      status: 'done',
      outcome: { status: 'done', by: f.managerId, movementId: done1.body.data.movement.id, notes: 'Spray cabinet, all houses' },
    });
    expect(occurrence(after.body.data, step14, ageDate(14))).toMatchObject({ status: 'done', outcome: { movementId: done14.body.data.movement.id } });
    expect((after.body.data.overdue as Json[]).some((o) => o.kind === 'vaccination')).toBe(false);

    // done once: a second completion (another phone, another key) is 409 naming the date, and writes nothing
    for (const [o, date] of [
      [day1, ageDate(1)],
      [day14, ageDate(14)],
    ] as const) {
      const again = await complete(o, { notes: 'second phone' }, `second-phone-${date}`);
      expectStatus(again, 409, `complete ${date} again`);
      expect(again.body.error).toContain(date);
    }
    expect(await cycleMovements(f, 'vaccination')).toHaveLength(2);
    expect((await summary(f)).vaccinations).toBe(2);
  });

  it('10,000 kg of feed ordered and received in two parts: stock, order status, supplier reliability and the analytics scores all agree with the ledger', async () => {
    const f = farms.hillside;
    const token = f.token;
    const supplier = await http('POST', '/api/v1/procurement/suppliers', {
      token,
      headers: { 'Idempotency-Key': 'hillside-supplier' },
      body: { name: 'Valley Feeds', kinds: ['feed'], contact: { person: 'Order desk', email: 'orders@valley-feeds.example.com' }, farmIds: [f.farmId] },
    });
    expectStatus(supplier, 201, 'POST supplier');
    const supplierId: string = supplier.body.data.id;
    // the order is placed and expected today on the farm's calendar (Auckland's date, not UTC's): both receipts on time
    const draft = await http('POST', '/api/v1/procurement/orders', {
      token,
      headers: { 'Idempotency-Key': 'hillside-order-1' },
      body: {
        farmId: f.farmId,
        supplierId,
        lines: [{ itemKind: 'feed', feedType: 'grower', quantity: ORDERED_KG, unit: 'kg', unitPrice: 0.42 }],
        expectedDate: HILLSIDE_TODAY,
      },
    });
    expectStatus(draft, 201, 'POST order');
    expect(draft.body.data).toMatchObject({ status: 'draft', total: 4200 });
    const orderId: string = draft.body.data.id;
    const lineId: string = draft.body.data.lines[0].id;
    const placed = await http('POST', `/api/v1/procurement/orders/${orderId}/place`, { token, headers: { 'If-Match': '"1"' }, body: {} });
    expectStatus(placed, 200, 'place order');
    expect(placed.body.data).toMatchObject({ status: 'ordered', version: 2 });

    let stockBefore = feedKg(await stock(f), 'grower');
    expect(stockBefore).toBe(0);
    let received = 0;
    for (const [i, r] of RECEIPTS.entries()) {
      const res = await http('POST', `/api/v1/procurement/orders/${orderId}/receipts`, {
        token,
        headers: { 'Idempotency-Key': `hillside-delivery-note-${i + 1}` },
        body: {
          date: HILLSIDE_TODAY,
          lines: [
            { lineId, quantity: r.kg, flockId: f.flockId, lotNumber: `LOT-${i + 1}`, ...(r.qualityIssues.length ? { qualityIssues: r.qualityIssues } : {}) },
          ],
        },
      });
      expectStatus(res, 201, `POST receipt ${i + 1}`);
      received += r.kg;
      const last = i === RECEIPTS.length - 1;
      expect(res.body.data.order).toMatchObject({ status: last ? 'received' : 'partially_received', lines: [{ id: lineId, receivedQuantity: received }] });
      expect(res.body.data.receipt.lines).toEqual([expect.objectContaining({ lineId, quantity: r.kg, flockId: f.flockId, cycleId: f.cycleId })]);
      // the farm's stock of that feed type rose by exactly the kg received
      const now = feedKg(await stock(f), 'grower');
      expect(now - stockBefore, `stock after receipt ${i + 1}`).toBe(r.kg);
      stockBefore = now;
      const order = await http('GET', `/api/v1/procurement/orders/${orderId}`, { token });
      expectStatus(order, 200, 'GET order');
      expect(order.body.data.status).toBe(last ? 'received' : 'partially_received');
      expect(order.body.data.receipts).toHaveLength(i + 1);
    }
    expect(stockBefore).toBe(ORDERED_KG);

    // the ledger: two feed_delivery movements in the cycle, 10,000 kg, each carrying the supplier facts
    const deliveries = await cycleMovements(f, 'feed_delivery');
    expect(deliveries).toHaveLength(2);
    expect(sumOf(deliveries, 'feed_delivery', 'quantityKg')).toBe(ORDERED_KG);
    for (const m of deliveries) expect(m).toMatchObject({ supplierId, orderId, feedType: 'grower', expectedDate: HILLSIDE_TODAY, orderedDate: HILLSIDE_TODAY });
    expect((await summary(f)).feed.deliveredKg).toBe(ORDERED_KG);

    // reliability as the ledger implies it: on time = delivered ≤ expected, quality = deliveries with an issue,
    // fill = Σ received ÷ ordered of the order's line
    const onTime = deliveries.filter((m) => m.date <= m.expectedDate).length;
    const withIssues = deliveries.filter((m) => (m.qualityIssues ?? []).length > 0).length;
    const rel = await http('GET', `/api/v1/procurement/suppliers/${supplierId}/reliability`, { token });
    expectStatus(rel, 200, 'GET reliability');
    const r = rel.body.data;
    expect(r).toMatchObject({
      supplierId,
      farmIds: [f.farmId],
      receipts: deliveries.length,
      onTimeRatePct: { value: pct(onTime, deliveries.length), unit: '%' },
      fillRatePct: { value: pct(ORDERED_KG, ORDERED_KG), unit: '%' },
      qualityIssueRatePct: { value: pct(withIssues, deliveries.length), unit: '%' },
      fill: { orderedKg: ORDERED_KG, receivedKg: ORDERED_KG, lines: 1 },
    });
    expect([r.onTimeRatePct.value, r.fillRatePct.value, r.qualityIssueRatePct.value]).toEqual([100, 100, 50]);
    expect(r.reliability).toMatchObject({
      supplierId,
      deliveries: 2,
      kg: ORDERED_KG,
      onTime: { onTime: 2, late: 0 },
      quality: { deliveriesWithIssues: 1, issuesByKind: { wet: 1 } },
    });
    // quantity accuracy: each receipt against what was still outstanding when it came (6,000 of 10,000: −40 %;
    // 4,000 of 4,000: 0 %); the score weighs quality 0.40, on time 0.35, quantity 0.25 (docs/analytics.md)
    const meanAbsVariance = deliveries.reduce((a, m) => a + Math.abs((m.quantityKg - m.orderedQuantityKg) / m.orderedQuantityKg) * 100, 0) / deliveries.length;
    const components = { onTime: pct(onTime, deliveries.length), quantity: 100 - meanAbsVariance, quality: 100 - pct(withIssues, deliveries.length) };
    expect(r.reliability.components).toEqual({
      onTime: { value: components.onTime, unit: 'index' },
      quantity: { value: components.quantity, unit: 'index' },
      quality: { value: components.quality, unit: 'index' },
    });
    const score = Math.round((0.4 * components.quality + 0.35 * components.onTime + 0.25 * components.quantity) * 10) / 10;
    expect(r.score).toEqual({ value: score, unit: 'index' });
    expect(r.score).toEqual(r.reliability.score);

    // the analytics supplier scores of the cycle: the same entry, the same numbers
    const analytics = await http('GET', `/api/v2/analytics/cycle/${f.flockId}/${f.cycleId}/suppliers`, { token });
    expectStatus(analytics, 200, 'GET analytics suppliers');
    expect(analytics.body.data).toMatchObject({ deliveries: 2, kg: ORDERED_KG });
    expect(analytics.body.data.suppliers).toEqual([r.reliability]);
  });

  it('500 birds from Riverside to Meadow: requested by the sender, approved by the receiver, completed; summaries and farm stock add up with the ledger', async () => {
    const [from, to] = [farms.riverside, farms.meadow];
    const [fromBefore, toBefore] = [await summary(from), await summary(to)];
    expect(fromBefore.birds).toMatchObject({ placed: 4000, deaths: 35, culls: 5, transferredOut: 0, alive: 3960 });
    expect(toBefore.birds).toMatchObject({ placed: 1200, transferredIn: 0, alive: 1200 });

    const request = await http('POST', '/api/v1/sharing/transfers', {
      token: from.token,
      headers: { 'Idempotency-Key': 'riverside-thinning-1' },
      body: {
        kind: 'birds',
        quantity: 500,
        from: { farmId: from.farmId, flockId: from.flockId },
        to: { farmId: to.farmId, flockId: to.flockId },
        notes: 'Thinning',
      },
    });
    expectStatus(request, 201, 'POST transfer');
    const t = request.body.data;
    // the receiving flock is only proposed: its cycle is the receiving farm's choice, at approval
    expect(t).toMatchObject({ status: 'requested', version: 1, from: { cycleId: from.cycleId }, to: { flockId: to.flockId, cycleId: null } });
    const approve = await http('POST', `/api/v1/sharing/transfers/${t.id}/approve`, {
      token: to.token,
      headers: { 'If-Match': '"1"', 'Idempotency-Key': 'meadow-approve-1' },
      body: { note: 'Room in house 1', flockId: to.flockId }, // the receiving farm chooses its flock (its active cycle)
    });
    expectStatus(approve, 200, 'approve');
    expect(approve.body.data).toMatchObject({
      status: 'approved',
      approved: { by: to.managerId },
      to: { flockId: to.flockId, cycleId: to.cycleId },
      version: 2,
    });
    const complete = await http('POST', `/api/v1/sharing/transfers/${t.id}/complete`, {
      token: from.token,
      headers: { 'If-Match': '"2"', 'Idempotency-Key': 'riverside-complete-1' },
      body: {},
    });
    expectStatus(complete, 200, 'complete');
    const done = complete.body.data;
    expect(done).toMatchObject({ status: 'completed', completedDate: UTC_TODAY, version: 3 });

    // both cycle summaries: only the transfer counters and alive moved, by 500
    const [fromAfter, toAfter] = [await summary(from), await summary(to)];
    expect(fromAfter.birds).toEqual({ ...fromBefore.birds, transferredOut: 500, alive: fromBefore.birds.alive - 500 });
    expect(toAfter.birds).toEqual({ ...toBefore.birds, transferredIn: 500, alive: toBefore.birds.alive + 500 });

    // the ledger: the pair of movements, dated the completion, pointing at each other and at the transfer
    const out = await cycleMovements(from, 'bird_transfer_out');
    const into = await cycleMovements(to, 'bird_transfer_in');
    expect(out).toEqual([
      expect.objectContaining({ id: done.from.movementId, date: UTC_TODAY, quantity: 500, transferId: t.id, counterpartMovementId: done.to.movementId }),
    ]);
    expect(into).toEqual([
      expect.objectContaining({ id: done.to.movementId, date: UTC_TODAY, quantity: 500, transferId: t.id, counterpartMovementId: done.from.movementId }),
    ]);

    // the farm-level figures: each farm's bird stock is what its ledger adds up to, and the cycle's alive
    for (const [f, s] of [
      [from, fromAfter],
      [to, toAfter],
    ] as const) {
      const ledger = await farmMovements(f);
      const st = await stock(f);
      expect(st.birds.total).toBe(aliveFromLedger(ledger));
      expect(st.birds.total).toBe(s.birds.alive);
      expect(st.birds.flocks).toEqual([expect.objectContaining({ flockId: f.flockId, cycleId: f.cycleId, alive: s.birds.alive, placed: s.birds.placed })]);
      expect(s.birds.transferredIn - s.birds.transferredOut).toBe(sumOf(ledger, 'bird_transfer_in') - sumOf(ledger, 'bird_transfer_out'));
    }
    expect((await stock(from)).birds.total).toBe(4000 - 35 - 5 - 500);
    expect((await stock(to)).birds.total).toBe(1200 + 500);
  });

  it('a farm with an open disease-suspicion incident cannot send: 409 naming the incident at request and at completion, nothing written', async () => {
    const [from, to] = [farms.quarantine, farms.meadow];
    const body = { kind: 'birds', quantity: 300, from: { farmId: from.farmId, flockId: from.flockId }, to: { farmId: to.farmId, flockId: to.flockId } };
    // a transfer requested and approved before the suspicion
    const earlier = await http('POST', '/api/v1/sharing/transfers', { token: from.token, body });
    expectStatus(earlier, 201, 'POST transfer before the incident');
    const approved = await http('POST', `/api/v1/sharing/transfers/${earlier.body.data.id}/approve`, { token: to.token, body: {} });
    expectStatus(approved, 200, 'approve before the incident');

    const incident = await http('POST', '/api/v1/operations/incidents', {
      token: from.token,
      body: { farmId: from.farmId, title: 'Suspected avian influenza in house 1', category: 'disease_suspicion', severity: 'critical' },
    });
    expectStatus(incident, 201, 'POST incident');
    const incidentId: string = incident.body.data.id;

    const [fromBefore, toBefore] = [await summary(from), await summary(to)];
    const [fromLedger, toLedger] = [await farmMovements(from), await farmMovements(to)];
    const [fromStock, toStock] = [await stock(from), await stock(to)];

    const refused = await http('POST', '/api/v1/sharing/transfers', { token: from.token, headers: { 'Idempotency-Key': 'quarantine-after' }, body });
    expectStatus(refused, 409, 'POST transfer from a restricted farm');
    expect(refused.body.error).toContain(incidentId);
    const completion = await http('POST', `/api/v1/sharing/transfers/${earlier.body.data.id}/complete`, {
      token: from.token,
      headers: { 'If-Match': '"2"' },
      body: {},
    });
    expectStatus(completion, 409, 'complete from a restricted farm');
    expect(completion.body.error).toContain(incidentId);
    // the receiving farm cannot complete it either
    const byReceiver = await http('POST', `/api/v1/sharing/transfers/${earlier.body.data.id}/complete`, { token: to.token, body: {} });
    expectStatus(byReceiver, 409, 'complete by the receiver from a restricted farm');
    expect(byReceiver.body.error).toContain(incidentId);

    // nothing written: summaries, ledgers and stock as they were; the transfer still approved; no new transfer
    expect(await summary(from)).toEqual(fromBefore);
    expect(await summary(to)).toEqual(toBefore);
    expect(await farmMovements(from)).toEqual(fromLedger);
    expect(await farmMovements(to)).toEqual(toLedger);
    expect((await stock(from)).birds).toEqual(fromStock.birds);
    expect((await stock(to)).birds).toEqual(toStock.birds);
    const still = await http('GET', `/api/v1/sharing/transfers/${earlier.body.data.id}`, { token: from.token });
    expectStatus(still, 200, 'GET transfer');
    expect(still.body.data).toMatchObject({ status: 'approved', version: 2, completed: null, from: { movementId: null }, to: { movementId: null } });
    const outgoing = await http('GET', `/api/v1/sharing/transfers?farmId=${from.farmId}&direction=outgoing`, { token: from.token });
    expectStatus(outgoing, 200, 'GET outgoing transfers');
    expect((outgoing.body.data as Json[]).map((x) => x.id)).toEqual([earlier.body.data.id]);
  });
});
