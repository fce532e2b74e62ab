/** Compliance rules without I/O: withdrawal windows, density, Salmonella due dates, findings and the CSV rows. */
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween } from '../../shared/domain/compliance/dates.js';
import { birdsPerDay, densityOf, weightOn } from '../../shared/domain/compliance/density.js';
import { medicineRecordsRule, missingArt108Fields, overallStatus, reportRows, withdrawalSalesRule } from '../../shared/domain/compliance/report.js';
import { broilerSampling, layerSampling } from '../../shared/domain/compliance/sampling.js';
import { saleRefusal, windowOf, windowsCovering, withdrawalEnd } from '../../shared/domain/compliance/withdrawals.js';

const med = (date: string, fields: Record<string, unknown>) => ({
  id: 'M1',
  farmId: 'F',
  flockId: 'FL',
  cycleId: 'C',
  date,
  fields: { product: 'Amoxi', ...fields },
});

describe('withdrawal windows', () => {
  it('end = last treatment day + withdrawal days; one treatment day by default', () => {
    expect(withdrawalEnd('2026-03-01', 5)).toBe('2026-03-06');
    expect(withdrawalEnd('2026-03-01', 5, 3)).toBe('2026-03-08');
    expect(windowOf(med('2026-03-01', { withdrawalDays: 7, treatmentDays: 5 }))).toMatchObject({
      treatmentEnd: '2026-03-05',
      endDate: '2026-03-12',
      treatmentDays: 5,
    });
  });
  it('no window without a withdrawal period, or with zero days', () => {
    expect(windowOf(med('2026-03-01', {}))).toBeNull();
    expect(windowOf(med('2026-03-01', { withdrawalDays: 0 }))).toBeNull();
  });
  it('covers from the first treatment day to the last restricted day, both included', () => {
    const w = windowOf(med('2026-03-01', { withdrawalDays: 2 }))!;
    expect(['2026-02-28', '2026-03-01', '2026-03-03', '2026-03-04'].map((d) => windowsCovering([w], d).length)).toEqual([0, 1, 1, 0]);
  });
  it('the refusal names the goods, the product, the end and the first day of sale', () => {
    const w = windowOf(med('2026-03-01', { withdrawalDays: 7 }))!;
    const text = saleRefusal('egg_sale', 'C', '2026-03-03', [w]);
    expect(text).toContain('eggs');
    expect(text).toContain('Amoxi (withdrawal ends 2026-03-08');
    expect(text).toContain('Sell from 2026-03-09');
  });
});

describe('stocking density', () => {
  it('broilers: birds × kg ÷ m² against the tier; layers: hens per m² against 9', () => {
    expect(densityOf({ date: 'd', birds: 20000 }, 1000, 'broiler', 33, { grams: 2000, source: 'measured' })).toMatchObject({
      value: 40,
      over: true,
      unit: 'kg/m2',
    });
    expect(densityOf({ date: 'd', birds: 20000 }, 1000, 'broiler', 42, { grams: 2000, source: 'measured' })!.over).toBe(false);
    expect(densityOf({ date: 'd', birds: 9000 }, 1000, 'layer', 33, null)).toMatchObject({ value: 9, over: false, unit: 'birds/m2' });
    expect(densityOf({ date: 'd', birds: 9001 }, 1000, 'layer', 33, null)!.over).toBe(true);
    expect(densityOf({ date: 'd', birds: 1 }, 0, 'layer', 33, null)).toBeNull();
  });
  it('birds present per day: alive at the start plus the day’s arrivals', () => {
    const days = birdsPerDay(
      [
        { type: 'bird_inflow', date: '2026-01-01', quantity: 100 },
        { type: 'bird_mortality', date: '2026-01-02', quantity: 10 },
        { type: 'bird_sale', date: '2026-01-03', quantity: 50 },
      ],
      '2026-01-01',
      '2026-01-04',
      addDays,
    );
    expect(days.map((d) => d.birds)).toEqual([100, 100, 90, 40]);
  });
  it('weight: measured within 3 days, else the breed standard, else the last weighing', () => {
    const w = [{ date: '2026-01-10', grams: 500 }];
    expect(weightOn('2026-01-12', w, () => 700, daysBetween)).toEqual({ grams: 500, source: 'measured' });
    expect(weightOn('2026-01-20', w, () => 900, daysBetween)).toEqual({ grams: 900, source: 'breed_standard' });
    expect(weightOn('2026-01-20', w, () => null, daysBetween)).toEqual({ grams: 500, source: 'last_measured' });
  });
});

describe('Salmonella due dates', () => {
  const hatch = '2026-01-01';
  it('layers: first at 24 ± 2 weeks, then every 15 weeks from the last sample', () => {
    const first = addDays(hatch, 24 * 7);
    const occ = layerSampling(hatch, [first], addDays(first, 20));
    expect(occ[0]).toMatchObject({ status: 'done', sampleDate: first });
    expect(occ[1]).toMatchObject({ status: 'upcoming', dueBy: addDays(first, 105) });
  });
  it('layers: a missed occurrence fails and the next counts from its last day', () => {
    const occ = layerSampling(hatch, [], addDays(hatch, 26 * 7 + 1));
    expect(occ.map((o) => o.status)).toEqual(['missed', 'upcoming']);
    expect(layerSampling(hatch, [], addDays(hatch, 26 * 7 + 95)).map((o) => o.status)).toEqual(['missed', 'due']);
    expect(occ[1]!.dueBy).toBe(addDays(hatch, 26 * 7 + 105));
  });
  it('layers: before 22 weeks it is upcoming, inside the window due, a late sample restarts the clock', () => {
    expect(layerSampling(hatch, [], addDays(hatch, 100))[0]!.status).toBe('upcoming');
    expect(layerSampling(hatch, [], addDays(hatch, 23 * 7))[0]!.status).toBe('due');
    const late = addDays(hatch, 28 * 7);
    const occ = layerSampling(hatch, [late], addDays(late, 10));
    expect(occ[0]).toMatchObject({ status: 'late', sampleDate: late });
    expect(occ[1]).toMatchObject({ dueBy: addDays(late, 105) });
  });
  it('broilers: a sample in the 3 weeks before they leave; none is missed once they left', () => {
    expect(broilerSampling('2026-02-20', ['2026-02-05'], '2026-02-25')[0]!.status).toBe('done');
    expect(broilerSampling('2026-02-20', ['2026-01-05'], '2026-02-25')[0]!.status).toBe('early');
    expect(broilerSampling('2026-02-20', [], '2026-02-25')[0]!.status).toBe('missed');
    expect(broilerSampling('2026-02-20', [], '2026-02-10')[0]!.status).toBe('due');
    expect(broilerSampling(null, [], '2026-02-10')).toEqual([]);
  });
});

describe('findings', () => {
  const w = windowOf(med('2026-03-01', { withdrawalDays: 7 }))!;
  it('a sale in a window: fail without an override, warn with one; outside: pass', () => {
    const sale = { id: 'S', type: 'bird_sale', date: '2026-03-03', quantity: 5, createdBy: 'u' };
    expect(withdrawalSalesRule([w], [{ ...sale, override: null }]).status).toBe('fail');
    expect(withdrawalSalesRule([w], [{ ...sale, override: { reason: 'lab test' } }]).findings[0]).toMatchObject({
      status: 'warn',
      evidence: { override: { reason: 'lab test' } },
    });
    expect(withdrawalSalesRule([w], [{ ...sale, date: '2026-03-09', override: null }]).status).toBe('pass');
  });
  it('Art. 108 completeness: a withdrawal period of zero counts as given; supplier or proof of purchase', () => {
    expect(
      missingArt108Fields({ product: 'X', quantityAdministered: '1 l', purchaseReference: 'INV-1', prescribedBy: 'Dr A', withdrawalDays: 0, treatmentDays: 3 }),
    ).toEqual([]);
    expect(missingArt108Fields({ product: 'X' })).toEqual([
      'quantity administered',
      'supplier or proof of purchase',
      'prescribing veterinarian',
      'withdrawal period (even when zero)',
      'duration of the treatment',
    ]);
    expect(medicineRecordsRule([{ id: 'M', date: '2026-01-01', fields: { product: 'X' } }]).status).toBe('warn');
  });
  it('overall status and CSV rows: every rule once at least, with its source', () => {
    const rules = [withdrawalSalesRule([w], []), medicineRecordsRule([{ id: 'M', date: '2026-01-01', fields: { product: 'X' } }])];
    expect(overallStatus(rules)).toBe('warn');
    const rows = reportRows(rules);
    expect(rows.map((r) => r[0])).toEqual(['withdrawal_sales', 'medicine_records']);
    expect(rows[0]![2]).toContain('2019/6');
  });
});
