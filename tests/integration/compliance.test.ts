/**
 * Compliance through the real middleware and DynamoDB Local: a sale inside a medication's withdrawal period
 * is refused naming the product and the last restricted day; the override needs manage_compliance (403
 * without) and is audited with who, why and which window; a sale that read the windows before a
 * medication committed is cancelled; concurrent sale and medication never both pass the check; edits and
 * deletes of the medication move the window; Salmonella samples; the report (JSON and CSV, density over the
 * tier) and the farm status; farm scoping.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { applyLedger, type MovementRecord } from '../../shared/db/movements.js';
import { effectsOf, netChanges } from '../../shared/domain/ledger.js';
import { Conflict } from '../../shared/errors.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function farmWithCycle(opts: { birdType?: string; startDate?: string; hatchDate?: string; houseId?: string; farmId?: string } = {}) {
  const farmId = opts.farmId ?? (await otherFarm('Compliance farm'));
  const [manager, worker, vet] = await Promise.all([
    userWith({ role: 'manager', farmIds: [farmId] }),
    userWith({ role: 'worker', farmIds: [farmId] }),
    userWith({ role: 'veterinarian', farmIds: [farmId] }),
  ]);
  const c = await flockWithCycle({ token: manager.token, farmId, birdType: opts.birdType ?? 'broiler', startDate: opts.startDate ?? day(-20), ...opts });
  const movements = `${c.base}/movements`;
  const post = (token: string, body: Json, headers: Record<string, string> = {}) => call('POST', movements, { token, body, headers });
  return { farmId, manager, worker, vet, flockId: c.flock.id as string, cycleId: c.cycle.id as string, base: c.base, movements, move: c.move, post };
}

const medication = (date: string, extra: Json = {}) => ({
  type: 'medication',
  date,
  product: 'Amoxicillin 50%',
  dose: '20 mg/kg',
  withdrawalDays: 7,
  ...extra,
});

describe('withdrawal periods', () => {
  it('a sale on day 3 of a 7-day withdrawal is refused naming the product and the last restricted day; the day after it passes', async () => {
    const f = await farmWithCycle();
    await f.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    await f.move(medication(day(-3)));
    const refused = await f.post(f.manager.token, { type: 'bird_sale', date: day(0), quantity: 10 });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('Amoxicillin 50%');
    expect(refused.body.error).toContain(day(4));
    const eggs = await f.post(f.manager.token, { type: 'egg_sale', date: day(0), quantity: 10 });
    expect(eggs.status).toBe(409);
    expect(eggs.body.error).toContain('eggs');
    // nothing written: the cycle still holds 1000 birds
    expect((await call('GET', f.base, { token: f.manager.token })).body.data.birds).toMatchObject({ alive: 1000, sold: 0 });
    // before the treatment and after the window: free (the window ends day(4), so day(5) is the first day of sale; in the past only: a day before the treatment)
    expect((await f.post(f.manager.token, { type: 'bird_sale', date: day(-4), quantity: 10 })).status).toBe(201);
    const list = await call('GET', '/api/v1/compliance/withdrawals', { token: f.worker.token, query: { farmId: f.farmId, active: 'true' } });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        flockId: f.flockId,
        cycleId: f.cycleId,
        product: 'Amoxicillin 50%',
        treatmentStart: day(-3),
        treatmentEnd: day(-3),
        withdrawalDays: 7,
        endsOn: day(4),
        active: true,
        daysLeft: 5,
      }),
    ]);
  });

  it('counts from the end of the treatment: 5 treatment days move the end by 4 days', async () => {
    const f = await farmWithCycle();
    await f.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    await f.move(medication(day(-12), { treatmentDays: 5, withdrawalDays: 3 }));
    // treatment day(-12)…day(-8), last restricted day day(-5)
    const refused = await f.post(f.manager.token, { type: 'bird_sale', date: day(-5), quantity: 1 });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain(day(-5));
    expect((await f.post(f.manager.token, { type: 'bird_sale', date: day(-4), quantity: 1 })).status).toBe(201);
  });

  it('the override: 403 without manage_compliance (worker), 201 with it (veterinarian), audited with who, why and which window', async () => {
    const f = await farmWithCycle();
    await f.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    const med = await f.post(f.manager.token, medication(day(-2)));
    expect(med.status).toBe(201);
    const sale = { type: 'bird_sale', date: day(0), quantity: 20, override: { reason: 'Lab residue test negative, certificate 42' } };
    const byWorker = await f.post(f.worker.token, sale);
    expect(byWorker.status).toBe(403);
    expect(byWorker.body.error).toContain('manage_compliance');
    // without the override, the worker is refused with 409 (not 403)
    expect((await f.post(f.worker.token, { ...sale, override: undefined })).status).toBe(409);
    const byVet = await f.post(f.vet.token, sale, { 'Idempotency-Key': `override-${f.cycleId}` });
    expect(byVet.status, JSON.stringify(byVet.body)).toBe(201);
    expect(byVet.body.data.override).toEqual({ reason: sale.override.reason });
    const audit = await call('GET', '/api/v1/admin/audit', { token: await adminLogin(), query: { targetId: byVet.body.data.id } });
    const entry = (audit.body.data as Json[]).find((e) => e.action === 'compliance.withdrawal_override');
    expect(entry).toMatchObject({
      actorId: f.vet.id,
      targetType: 'movement',
      changes: { reason: sale.override.reason, windows: [{ movementId: med.body.data.id, product: 'Amoxicillin 50%', endDate: day(5) }] },
    });
    // a replay writes nothing again
    const replay = await f.post(f.vet.token, sale, { 'Idempotency-Key': `override-${f.cycleId}` });
    expect(replay.headers['Idempotent-Replayed'] ?? replay.headers['idempotent-replayed']).toBe('true');
    expect((await call('GET', f.base, { token: f.manager.token })).body.data.birds.sold).toBe(20);
  });

  it('an override outside any window is not kept (and still needs the capability)', async () => {
    const f = await farmWithCycle();
    await f.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    expect((await f.post(f.worker.token, { type: 'bird_sale', date: day(0), quantity: 1, override: { reason: 'x' } })).status).toBe(403);
    const res = await f.post(f.manager.token, { type: 'bird_sale', date: day(0), quantity: 1, override: { reason: 'x' } });
    expect(res.status).toBe(201);
    expect(res.body.data.override).toBeUndefined();
  });

  it('editing or deleting the medication moves or closes the window; editing a sale into a window is refused', async () => {
    const f = await farmWithCycle();
    await f.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    const med = (await f.post(f.manager.token, medication(day(-10), { withdrawalDays: 2 }))).body.data;
    const sale = (await f.post(f.manager.token, { type: 'bird_sale', date: day(-1), quantity: 5 })).body.data;
    // the sale moved into the window: refused, nothing changed
    const moved = await call('PATCH', `${f.movements}/${sale.id}`, { token: f.manager.token, body: { date: day(-9) }, headers: { 'If-Match': '"1"' } });
    expect(moved.status).toBe(409);
    expect(moved.body.error).toContain(day(-8));
    // a longer withdrawal: the window now covers day(0)
    const longer = await call('PATCH', `${f.movements}/${med.id}`, { token: f.manager.token, body: { withdrawalDays: 12 }, headers: { 'If-Match': '"1"' } });
    expect(longer.status, JSON.stringify(longer.body)).toBe(200);
    expect((await f.post(f.manager.token, { type: 'bird_sale', date: day(0), quantity: 1 })).status).toBe(409);
    const windows = (await call('GET', '/api/v1/compliance/withdrawals', { token: f.manager.token, query: { farmId: f.farmId } })).body.data as Json[];
    expect(windows.map((w) => w.endsOn)).toEqual([day(2)]);
    // deleted: no window, the sale passes
    expect((await call('DELETE', `${f.movements}/${med.id}`, { token: f.manager.token, headers: { 'If-Match': '"2"' } })).status).toBe(204);
    expect((await call('GET', '/api/v1/compliance/withdrawals', { token: f.manager.token, query: { farmId: f.farmId } })).body.data).toEqual([]);
    expect((await f.post(f.manager.token, { type: 'bird_sale', date: day(0), quantity: 1 })).status).toBe(201);
  });

  it('a sale checked before a medication committed is cancelled by its transaction (the withdrawal revision moved)', async () => {
    const f = await farmWithCycle();
    await f.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    await f.move(medication(day(-1)));
    const now = new Date().toISOString();
    const ref = { farmId: f.farmId, flockId: f.flockId, cycleId: f.cycleId };
    const input = { type: 'bird_sale' as const, date: day(0), quantity: 1 };
    const sale: MovementRecord = {
      id: '01JD3Y4Z9V6Q8K2M5N7P0R1S3T',
      ...ref,
      type: 'bird_sale',
      date: day(0),
      fields: { quantity: 1 },
      lock: null,
      createdAt: now,
      createdBy: 'test',
      updatedAt: now,
      version: 1,
    };
    // read before the medication: revision 0; the cycle holds 1 now
    await expect(applyLedger({ groups: [{ ref, changes: netChanges(effectsOf(input)), withdrawalRev: 0 }], puts: [sale] })).rejects.toBeInstanceOf(Conflict);
    expect((await call('GET', f.base, { token: f.manager.token })).body.data.birds.sold).toBe(0);
  });

  it('a sale and a medication sent at the same time never both pass the check', async () => {
    const f = await farmWithCycle();
    for (let trial = 0; trial < 4; trial++) {
      const c = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(-20) });
      await c.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
      const [sale, med] = await Promise.all([
        call('POST', `${c.base}/movements`, { token: f.manager.token, body: { type: 'bird_sale', date: day(0), quantity: 10 } }),
        call('POST', `${c.base}/movements`, { token: f.manager.token, body: medication(day(-1)) }),
      ]);
      expect(med.status, JSON.stringify(med.body)).toBe(201);
      expect([201, 409]).toContain(sale.status);
      const report = await call('GET', `/api/v1/compliance/cycles/${c.flock.id}/${c.cycle.id}/report`, { token: f.manager.token });
      const rule = (report.body.data.rules as Json[]).find((r) => r.rule === 'withdrawal_sales')!;
      // refused: nothing to report; passed: it committed before the medication, and the report shows it inside the window recorded after it
      expect(rule.status).toBe(sale.status === 201 ? 'fail' : 'pass');
    }
  });
});

describe('compliance report, samples and status', () => {
  async function broilerInHouse(areaM2: number) {
    const farmId = await otherFarm('Density farm');
    const manager = await userWith({ role: 'manager', farmIds: [farmId] });
    const house = await call('POST', `/api/v1/config/farms/${farmId}/houses`, {
      token: manager.token,
      body: { name: 'House A', usableAreaM2: areaM2, capacity: 30000 },
    });
    expect(house.status, JSON.stringify(house.body)).toBe(201);
    const c = await flockWithCycle({ token: manager.token, farmId, houseId: house.body.data.id, startDate: day(-30), hatchDate: day(-30) });
    return { farmId, manager, houseId: house.body.data.id as string, ...c };
  }

  it('density crossing the tier shows in the report per house and day, with its evidence; the CSV has every rule with its source', async () => {
    const f = await broilerInHouse(1000);
    await f.move({ type: 'bird_inflow', date: day(-30), quantity: 20000 });
    // 20 000 birds × 2.0 kg ÷ 1000 m² = 40 kg/m²: over the default tier 33
    expect((await call('POST', `${f.base}/weights`, { token: f.token, body: { date: day(-2), grams: 2000 } })).status).toBe(201);
    await f.move({ type: 'medication', date: day(-5), product: 'Enrofloxacin', dose: '10 mg/kg', withdrawalDays: 0 });
    const res = await call('GET', `/api/v1/compliance/cycles/${f.flock.id}/${f.cycle.id}/report`, { token: f.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const report = res.body.data;
    const density = (report.rules as Json[]).find((r) => r.rule === 'stocking_density')!;
    expect(density.status).toBe('fail');
    expect(density.source).toContain('2007/43/EC');
    expect(density.findings).toContainEqual(
      expect.objectContaining({
        status: 'fail',
        date: day(-2),
        evidence: expect.objectContaining({
          houseId: f.houseId,
          birds: 20000,
          weightGrams: 2000,
          weightSource: 'measured',
          value: 40,
          limit: 33,
          unit: 'kg/m2',
        }),
      }),
    );
    const medicine = (report.rules as Json[]).find((r) => r.rule === 'medicine_records')!;
    expect(medicine.status).toBe('warn');
    expect(medicine.findings[0].evidence.missing).toEqual([
      'quantity administered',
      'supplier or proof of purchase',
      'prescribing veterinarian',
      'duration of the treatment',
    ]);
    expect(report.status).toBe('fail');

    const csv = await call('GET', `/api/v1/compliance/cycles/${f.flock.id}/${f.cycle.id}/report`, { token: f.token, headers: { Accept: 'text/csv' } });
    expect(csv.status).toBe(200);
    const { parseCsv } = await import('../../shared/presentation/csv.js');
    const rows = parseCsv(csv.raw);
    expect(rows[0]).toEqual(['rule', 'title', 'source', 'ruleStatus', 'summary', 'findingStatus', 'date', 'message', 'evidence']);
    for (const rule of report.rules as Json[]) expect(rows.some((r) => r[0] === rule.rule && r[2] === rule.source && r[3] === rule.status)).toBe(true);

    // the farm declares the 42 kg/m² tier: 40 kg/m² passes
    const tier = await call('PATCH', `/api/v1/config/farms/${f.farmId}`, { token: f.token, body: { densityTier: 42 }, headers: { 'If-Match': '"1"' } });
    expect(tier.status, JSON.stringify(tier.body)).toBe(200);
    expect(tier.body.data.densityTier).toBe(42);
    const again = (await call('GET', `/api/v1/compliance/cycles/${f.flock.id}/${f.cycle.id}/report`, { token: f.token })).body.data;
    expect((again.rules as Json[]).find((r) => r.rule === 'stocking_density')!.status).toBe('pass');
  });

  it('Salmonella samples: recorded with manage_compliance, listed, and counted in the report (broilers before they leave)', async () => {
    const f = await broilerInHouse(5000);
    await f.move({ type: 'bird_inflow', date: day(-30), quantity: 1000 });
    await f.move({ type: 'bird_sale', date: day(-1), quantity: 1000 });
    const worker = await userWith({ role: 'worker', farmIds: [f.farmId] });
    const body = { flockId: f.flock.id, date: day(-10), kind: 'boot_swabs', laboratory: 'Regional lab' };
    expect((await call('POST', '/api/v1/compliance/samples', { token: worker.token, body })).status).toBe(403);
    const created = await call('POST', '/api/v1/compliance/samples', { token: f.token, body, headers: { 'Idempotency-Key': `sample-${f.cycle.id}` } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ flockId: f.flock.id, cycleId: f.cycle.id, result: 'pending', kind: 'boot_swabs' });
    expect((await call('POST', '/api/v1/compliance/samples', { token: f.token, body: { ...body, date: day(30) } })).status).toBe(400);
    const list = await call('GET', '/api/v1/compliance/samples', { token: worker.token, query: { flockId: f.flock.id } });
    expect(list.body.data.map((s: Json) => s.id)).toEqual([created.body.data.id]);
    const report = (await call('GET', `/api/v1/compliance/cycles/${f.flock.id}/${f.cycle.id}/report`, { token: f.token })).body.data;
    const rule = (report.rules as Json[]).find((r) => r.rule === 'salmonella_sampling')!;
    expect(rule.status).toBe('pass');
    const status = await call('GET', `/api/v1/compliance/farms/${f.farmId}/status`, { token: f.token });
    expect(status.status).toBe(200);
    expect(status.body.data.cycles).toEqual([expect.objectContaining({ flockId: f.flock.id, cycleId: f.cycle.id })]);
  });

  it('farm scoping: another farm’s user gets 404 on the report, the status, the samples and the withdrawals', async () => {
    const f = await broilerInHouse(1000);
    const stranger = await userWith({ role: 'manager', farmIds: [await otherFarm('Stranger farm')] });
    expect((await call('GET', `/api/v1/compliance/cycles/${f.flock.id}/${f.cycle.id}/report`, { token: stranger.token })).status).toBe(404);
    expect((await call('GET', `/api/v1/compliance/farms/${f.farmId}/status`, { token: stranger.token })).status).toBe(404);
    expect((await call('GET', '/api/v1/compliance/withdrawals', { token: stranger.token, query: { farmId: f.farmId } })).status).toBe(404);
    expect((await call('GET', '/api/v1/compliance/samples', { token: stranger.token, query: { farmId: f.farmId } })).status).toBe(404);
    expect(
      (await call('POST', '/api/v1/compliance/samples', { token: stranger.token, body: { flockId: f.flock.id, date: day(-1), kind: 'dust' } })).status,
    ).toBe(404);
  });
});
