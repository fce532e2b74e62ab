/**
 * Compliance through the real middleware and DynamoDB Local: a sale inside a medication's withdrawal period
 * is refused naming the product and the last restricted day; the override needs manage_compliance (403
 * without) and is audited with who, why and which window; a sale that read the windows before a
 * medication committed is cancelled; concurrent sale and medication never both pass the check; edits and
 * deletes of the medication move the window; Salmonella samples; the report (JSON and CSV, density over the
 * tier) and the farm status; farm scoping; vaccination adherence from the schedules (on time, late,
 * skipped, missed); air quality from the hourly sensor rollups; Salmonella samples due or overdue on the
 * manager's and veterinarian's dashboards; Art. 108 fields on medication completions; the stocking density
 * warning of placements and transfers; paged compliance lists.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { adminLogin, userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { day, flockWithCycle } from '../support/cycles.js';
import { ingest, registerDevice } from '../support/iot.js';
import { ledgerWrites } from '../../shared/db/movements.js';
import type { MovementRecord } from '../../shared/domain/movements/record.js';
import { commit } from '../../shared/db/commit.js';
import { commandContext } from '../../shared/domain/command.js';
import { systemCaller } from '../../shared/domain/caller.js';
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
    await f.move({ type: 'egg_collection', date: day(-2), totalEggs: 100 });
    const eggs = await f.post(f.manager.token, { type: 'egg_sale', date: day(0), quantity: 10 });
    expect(eggs.status).toBe(409);
    expect(eggs.body.error).toContain(`eggs of cycle ${f.cycleId} laid on ${day(-2)} were laid inside a withdrawal period`);
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
    const write = ledgerWrites({ groups: [{ ref, changes: netChanges(effectsOf(input)), withdrawalRev: 0 }], puts: [sale] }, now);
    await expect(commit(commandContext(systemCaller('compliance-test', [], 'all')), { writes: write })).rejects.toBeInstanceOf(Conflict);
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

const ruleOf = (report: Json, rule: string): Json => (report.rules as Json[]).find((r) => r.rule === rule)!;
const reportOf = async (token: string, flockId: string, cycleId: string) => {
  const res = await call('GET', `/api/v1/compliance/cycles/${flockId}/${cycleId}/report`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Json;
};
const VACCINE = { vaccine: 'Newcastle disease, live (LaSota)', method: 'water', dose: '1 dose per bird' };

describe('vaccination adherence', () => {
  it('each occurrence up to today: on time, late (days after its date), skipped with its reason, missed; the programme’s sources', async () => {
    const f = await farmWithCycle({ startDate: day(-20) });
    // ages 5, 10, 15, 20, 25 from the placement: day(-15) … day(5)
    const schedule = await call('POST', '/api/v1/schedules', {
      token: f.manager.token,
      body: {
        farmId: f.farmId,
        kind: 'vaccination',
        title: 'ND',
        details: VACCINE,
        flockId: f.flockId,
        cycleId: f.cycleId,
        timing: { ageDays: [5, 10, 15, 20, 25] },
      },
    });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
    const occ = (date: string, action: 'complete' | 'skip', body: Json = {}) =>
      call('POST', `/api/v1/schedules/${schedule.body.data.id}/occurrences/${date}/${action}`, { token: f.worker.token, body });
    expect((await occ(day(-10), 'complete')).status).toBe(201);
    expect((await occ(day(0), 'complete')).status).toBe(201);
    expect((await occ(day(-5), 'skip', { reason: 'Flock sick: postponed on the vet’s advice' })).status).toBe(201);
    const rule = ruleOf(await reportOf(f.manager.token, f.flockId, f.cycleId), 'vaccination_adherence');
    expect(rule.status).toBe('fail');
    expect(rule.source).toContain('2019/6');
    expect(rule.summary).toBe(`1 on time, 1 late, 1 skipped, 1 missed of 4 up to ${day(0)}`);
    expect(rule.findings).toEqual([
      expect.objectContaining({ status: 'fail', date: day(-15), evidence: expect.objectContaining({ status: 'missed', outcome: null }) }),
      expect.objectContaining({
        status: 'warn',
        date: day(-10),
        evidence: expect.objectContaining({
          status: 'late',
          daysLate: 10,
          outcome: expect.objectContaining({ status: 'done', doneOn: day(0), by: f.worker.id }),
        }),
      }),
      expect.objectContaining({
        status: 'warn',
        date: day(-5),
        message: expect.stringContaining('vet’s advice'),
        evidence: expect.objectContaining({ status: 'skipped' }),
      }),
    ]);
    // in the farm status too
    const status = (await call('GET', `/api/v1/compliance/farms/${f.farmId}/status`, { token: f.manager.token })).body.data;
    expect(status.cycles[0].rules).toContainEqual(expect.objectContaining({ rule: 'vaccination_adherence', status: 'fail' }));

    // a programme applied to a new cycle: nothing due yet but day 1, and the programme's sources join the rule's
    const c = await flockWithCycle({ token: f.manager.token, farmId: f.farmId, startDate: day(0) });
    const applied = await call('POST', '/api/v1/schedules/programmes/broiler-typical/apply', {
      token: f.manager.token,
      body: { flockId: c.flock.id, cycleId: c.cycle.id },
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(201);
    const fresh = ruleOf(await reportOf(f.manager.token, c.flock.id, c.cycle.id), 'vaccination_adherence');
    expect(fresh).toMatchObject({ status: 'pass', summary: `No vaccination due up to ${day(0)}` });
    expect(fresh.source).toContain('msdvetmanual.com');
  });

  it('a medication completion takes the Art. 108 fields and treatmentDays; the movement carries them and the window counts from the end', async () => {
    const f = await farmWithCycle({ startDate: day(-20) });
    await f.move({ type: 'bird_inflow', date: day(-20), quantity: 1000 });
    const schedule = await call('POST', '/api/v1/schedules', {
      token: f.manager.token,
      body: {
        farmId: f.farmId,
        kind: 'medication',
        title: 'Amoxicillin',
        details: { product: 'Amoxicillin 50%', dose: '20 mg/kg', withdrawalDays: 2 },
        flockId: f.flockId,
        cycleId: f.cycleId,
        timing: { once: day(-6) },
      },
    });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
    const url = `/api/v1/schedules/${schedule.body.data.id}/occurrences/${day(-6)}/complete`;
    const art108 = {
      treatmentDays: 3,
      quantityAdministered: '2 l',
      supplier: 'VetSupply Ltd, 1 Market St',
      purchaseReference: 'INV-2026-001',
      prescriptionReference: 'RX-42',
      prescribedBy: 'Dr. Vet',
      batchNumber: 'B-7',
      animalsTreated: 1000,
    };
    // a field of no medication is refused, naming it
    const wrong = await call('POST', url, { token: f.worker.token, body: { data: { ...art108, vaccine: 'x' } } });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body.details)).toContain('data.vaccine');
    const done = await call('POST', url, { token: f.worker.token, body: { data: art108 } });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body.data.movement).toMatchObject({ type: 'medication', product: 'Amoxicillin 50%', withdrawalDays: 2, ...art108 });
    // treated day(-6)…day(-4), two days' withdrawal: restricted up to day(-2)
    const windows = (await call('GET', '/api/v1/compliance/withdrawals', { token: f.manager.token, query: { farmId: f.farmId } })).body.data as Json[];
    expect(windows).toEqual([expect.objectContaining({ treatmentEnd: day(-4), endsOn: day(-2), treatmentDays: 3 })]);
    const medicine = ruleOf(await reportOf(f.manager.token, f.flockId, f.cycleId), 'medicine_records');
    expect(medicine.status).toBe('pass');
  });
});

describe('air quality', () => {
  it('per house: the share of hours with NH₃ ≤ 20 ppm and CO₂ ≤ 3,000 ppm; hours without data are not compliant; fail once the limits bind', async () => {
    const farmId = await otherFarm('Air farm');
    const manager = await userWith({ role: 'manager', farmIds: [farmId] });
    const house = await call('POST', `/api/v1/config/farms/${farmId}/houses`, {
      token: manager.token,
      body: { name: 'House Air', usableAreaM2: 1000, capacity: 20000 },
    });
    expect(house.status, JSON.stringify(house.body)).toBe(201);
    const houseId = house.body.data.id as string;
    const c = await flockWithCycle({ token: manager.token, farmId, houseId, startDate: day(-1) });
    await c.move({ type: 'bird_inflow', date: day(-1), quantity: 1000 });
    const device = await registerDevice({ farmId, houseId, token: manager.token }, { kind: 'air_quality', name: 'Air front' });
    // three hours that ended: one over (NH₃ 25 ppm), one compliant, one with NH₃ only
    const hourStart = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const at = (hoursBack: number) => new Date(hourStart - hoursBack * 3_600_000 + 10 * 60_000).toISOString();
    const sent = await ingest(device.key, [
      { ts: at(3), metrics: { nh3Ppm: 25, co2Ppm: 1500 } },
      { ts: at(2), metrics: { nh3Ppm: 10, co2Ppm: 1500 } },
      { ts: at(1), metrics: { nh3Ppm: 10 } },
    ]);
    expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
    const rule = ruleOf(await reportOf(manager.token, c.flock.id, c.cycle.id), 'air_quality');
    expect(rule.source).toContain('Annex II');
    // the default tier (33 kg/m²): the limits are a reference only, the hour over warns
    expect(rule.status).toBe('warn');
    const over = (rule.findings as Json[]).find((x) => x.evidence.hoursOver)!;
    const hours = over.evidence.hours as number;
    expect(hours).toBeGreaterThanOrEqual(24);
    expect(over).toMatchObject({
      status: 'warn',
      evidence: {
        houseId,
        compliantHours: 1,
        overHours: 1,
        partialHours: 1,
        hoursWithoutData: hours - 3,
        compliantPct: Math.round((1 / hours) * 1000) / 10,
        worst: { nh3Ppm: { ppm: 25, hour: at(3).slice(0, 13) } },
        hoursOver: [{ hour: at(3).slice(0, 13), nh3Ppm: 25, co2Ppm: 1500 }],
      },
    });
    expect((rule.findings as Json[]).some((x) => x.status === 'warn' && /without both NH₃ and CO₂/.test(x.message))).toBe(true);
    // the farm declares 39 kg/m² (Annex II met): the same hour fails
    const tier = await call('PATCH', `/api/v1/config/farms/${farmId}`, { token: manager.token, body: { densityTier: 39 }, headers: { 'If-Match': '"1"' } });
    expect(tier.status, JSON.stringify(tier.body)).toBe(200);
    expect(ruleOf(await reportOf(manager.token, c.flock.id, c.cycle.id), 'air_quality').status).toBe('fail');
  });

  it('a house without NH₃ or CO₂ readings is not checked (warn), never compliant; a flock without a house neither', async () => {
    const farmId = await otherFarm('Quiet farm');
    const manager = await userWith({ role: 'manager', farmIds: [farmId] });
    const house = await call('POST', `/api/v1/config/farms/${farmId}/houses`, {
      token: manager.token,
      body: { name: 'House Q', usableAreaM2: 1000, capacity: 20000 },
    });
    const c = await flockWithCycle({ token: manager.token, farmId, houseId: house.body.data.id, startDate: day(-2) });
    const rule = ruleOf(await reportOf(manager.token, c.flock.id, c.cycle.id), 'air_quality');
    expect(rule.status).toBe('warn');
    expect(rule.findings).toEqual([
      expect.objectContaining({ status: 'warn', message: expect.stringContaining('not checked'), evidence: expect.objectContaining({ compliantHours: 0 }) }),
    ]);
    expect(rule.summary).toContain('House Q: 0% of');
    const f = await farmWithCycle();
    expect(ruleOf(await reportOf(f.manager.token, f.flockId, f.cycleId), 'air_quality')).toMatchObject({ status: 'warn', summary: 'Not checked: no house' });
  });
});

describe('Salmonella samples on the dashboards', () => {
  it('due and overdue samplings on the manager’s and the veterinarian’s summaries; a sample settles one', async () => {
    const farmId = await otherFarm('Sampling farm');
    const [manager, vet] = await Promise.all([userWith({ role: 'manager', farmIds: [farmId] }), userWith({ role: 'veterinarian', farmIds: [farmId] })]);
    // layers at 23 weeks: the first sampling (22–26 weeks) is due
    const layers = await flockWithCycle({ token: manager.token, farmId, birdType: 'layer', startDate: day(-23 * 7) });
    // broilers 40 days old, target age 35: the sampling before slaughter is 5 days overdue
    const broilers = await flockWithCycle({ token: manager.token, farmId, startDate: day(-40), cycle: { targetAgeDays: 35 } });
    const dash = async (token: string) => {
      const res = await call('GET', '/api/v1/dashboard', { token, query: { farmId } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.salmonellaSamples as Json[];
    };
    const expected = [
      expect.objectContaining({ flockId: broilers.flock.id, cycleId: broilers.cycle.id, status: 'overdue', dueBy: day(-5), daysOverdue: 5, daysLeft: 0 }),
      expect.objectContaining({ flockId: layers.flock.id, status: 'due', from: day(-7), dueBy: day(21), daysLeft: 22, daysOverdue: 0, lastSampleDate: null }),
    ];
    expect(await dash(manager.token)).toEqual(expected);
    expect(await dash(vet.token)).toEqual(expected);
    const sample = await call('POST', '/api/v1/compliance/samples', { token: vet.token, body: { flockId: layers.flock.id, date: day(0), kind: 'boot_swabs' } });
    expect(sample.status, JSON.stringify(sample.body)).toBe(201);
    expect(await dash(manager.token)).toEqual([expected[0]]);
  });
});

describe('stocking density warnings', () => {
  async function broilersInHouse(opts: { breed?: string; farmId?: string; token?: string } = {}) {
    const farmId = opts.farmId ?? (await otherFarm('Placement farm'));
    const token = opts.token ?? (await userWith({ role: 'manager', farmIds: [farmId] })).token;
    const house = await call('POST', `/api/v1/config/farms/${farmId}/houses`, {
      token,
      body: { name: `House ${Math.random()}`, usableAreaM2: 1000, capacity: 40000 },
    });
    expect(house.status, JSON.stringify(house.body)).toBe(201);
    const c = await flockWithCycle({
      token,
      farmId,
      houseId: house.body.data.id,
      breed: opts.breed ?? 'Ross 308',
      startDate: day(-1),
      cycle: { targetAgeDays: 42 },
    });
    return { farmId, houseId: house.body.data.id as string, ...c };
  }

  it('a placement that would pass the farm’s tier at the breed-standard weight is recorded, with a warning naming the density, the tier and the date', async () => {
    const f = await broilersInHouse();
    const body = { type: 'bird_inflow', date: day(-1), quantity: 20000 };
    const res = await call('POST', `${f.base}/movements`, { token: f.token, body, headers: { 'Idempotency-Key': `placement-${f.cycle.id}` } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'bird_inflow', quantity: 20000 });
    // 20 000 birds on 1000 m² pass 33 kg/m² above 1 650 g: Ross 308 between day 28 (1 616 g) and day 35 (2 296 g)
    expect(res.body.warnings).toEqual([
      expect.objectContaining({
        code: 'stocking_density',
        flockId: f.flock.id,
        cycleId: f.cycle.id,
        houseId: f.houseId,
        birds: 20000,
        areaM2: 1000,
        date: day(28),
        limit: 33,
        unit: 'kg/m2',
        weightSource: 'breed_standard',
      }),
    ]);
    const w = res.body.warnings[0];
    expect(w.value).toBeGreaterThan(33);
    expect(w.message).toContain(`${w.value} kg/m2 on ${day(28)}`);
    expect(w.message).toContain('33 kg/m²');
    // a replay answers the same, warnings included
    const replay = await call('POST', `${f.base}/movements`, { token: f.token, body, headers: { 'Idempotency-Key': `placement-${f.cycle.id}` } });
    expect(replay.headers['Idempotent-Replayed'] ?? replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.warnings).toEqual(res.body.warnings);
    expect((await call('GET', f.base, { token: f.token })).body.data.birds.alive).toBe(20000);
    // the farm declares 42 kg/m²: another 1 000 birds (21 000 × 2 998 g ÷ 1000 m² = 63 kg/m² at day 42) still pass it, and the warning names that tier
    const tier = await call('PATCH', `/api/v1/config/farms/${f.farmId}`, { token: f.token, body: { densityTier: 42 }, headers: { 'If-Match': '"1"' } });
    expect(tier.status).toBe(200);
    const more = await call('POST', `${f.base}/movements`, { token: f.token, body: { type: 'bird_inflow', date: day(0), quantity: 1000 } });
    expect(more.body.warnings[0]).toMatchObject({ limit: 42, birds: 21000 });
  });

  it('a placement that stays under the tier up to the harvest has no warnings; no breed standard and no forecast: nothing to look ahead with', async () => {
    const f = await broilersInHouse();
    const res = await call('POST', `${f.base}/movements`, { token: f.token, body: { type: 'bird_inflow', date: day(-1), quantity: 5000 } });
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('warnings');
    const unknown = await broilersInHouse({ breed: 'Village chicken' });
    const none = await call('POST', `${unknown.base}/movements`, { token: unknown.token, body: { type: 'bird_inflow', date: day(-1), quantity: 50000 } });
    expect(none.status).toBe(201);
    expect(none.body).not.toHaveProperty('warnings');
  });

  it('a transfer out of a flock warns about the receiving flock’s house', async () => {
    const f = await broilersInHouse();
    const from = await flockWithCycle({ token: f.token, farmId: f.farmId, startDate: day(-1) });
    await from.move({ type: 'bird_inflow', date: day(-1), quantity: 25000 });
    const res = await call('POST', `${from.base}/movements`, {
      token: f.token,
      body: { type: 'bird_transfer_out', date: day(0), quantity: 20000, counterpartFlockId: f.flock.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.warnings).toEqual([expect.objectContaining({ flockId: f.flock.id, cycleId: f.cycle.id, houseId: f.houseId, birds: 20000 })]);
  });
});

describe('paged compliance lists', () => {
  it('samples and withdrawal windows page with limit and cursor; a foreign cursor is a 400', async () => {
    const f = await farmWithCycle({ startDate: day(-30) });
    await f.move({ type: 'bird_inflow', date: day(-30), quantity: 1000 });
    for (const date of [day(-9), day(-8), day(-7)])
      expect((await call('POST', '/api/v1/compliance/samples', { token: f.manager.token, body: { flockId: f.flockId, date, kind: 'dust' } })).status).toBe(201);
    const first = await call('GET', '/api/v1/compliance/samples', { token: f.manager.token, query: { farmId: f.farmId, limit: '2' } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.map((s: Json) => s.date)).toEqual([day(-9), day(-8)]);
    expect(first.body.page).toMatchObject({ limit: 2, nextCursor: expect.any(String) });
    const second = await call('GET', '/api/v1/compliance/samples', {
      token: f.manager.token,
      query: { farmId: f.farmId, limit: '2', cursor: first.body.page.nextCursor },
    });
    expect(second.body.data.map((s: Json) => s.date)).toEqual([day(-7)]);
    expect(second.body.page.nextCursor).toBeNull();

    for (const date of [day(-20), day(-15), day(-10)]) await f.move(medication(date, { withdrawalDays: 2 }));
    const w1 = await call('GET', '/api/v1/compliance/withdrawals', { token: f.manager.token, query: { farmId: f.farmId, flockId: f.flockId, limit: '2' } });
    expect(w1.status, JSON.stringify(w1.body)).toBe(200);
    expect(w1.body.data.map((w: Json) => w.endsOn)).toEqual([day(-18), day(-13)]);
    const w2 = await call('GET', '/api/v1/compliance/withdrawals', {
      token: f.manager.token,
      query: { farmId: f.farmId, flockId: f.flockId, limit: '2', cursor: w1.body.page.nextCursor },
    });
    expect(w2.body.data.map((w: Json) => w.endsOn)).toEqual([day(-8)]);
    // a samples cursor is no withdrawals cursor
    const foreign = await call('GET', '/api/v1/compliance/withdrawals', {
      token: f.manager.token,
      query: { farmId: f.farmId, cursor: first.body.page.nextCursor },
    });
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(foreign.body)).toContain('cursor');
  });
});
