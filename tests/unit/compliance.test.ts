/**
 * Compliance rules without I/O: withdrawal windows, density (and a placement's check ahead), Salmonella due
 * dates (and what is open for the dashboards), vaccination adherence on the farm's clock, air quality per
 * hour, findings and the CSV rows.
 */
import { describe, expect, it } from 'vitest';
import { airHourStatus, hoursOfDays, houseAir, worstHourlyMeans } from '../../shared/domain/compliance/air.js';
import { birdsPerDay, densityOf, firstDayOver, forecastWeightOn, weightOn } from '../../shared/domain/compliance/density.js';
import {
  airQualityRule,
  medicineRecordsRule,
  missingArt108Fields,
  overallStatus,
  reportRows,
  vaccinationAdherenceRule,
  withdrawalSalesRule,
} from '../../shared/domain/compliance/report.js';
import { broilerSampling, cycleSampling, layerSampling, openSampling } from '../../shared/domain/compliance/sampling.js';
import { adherenceOf, type VaccinationOccurrence } from '../../shared/domain/compliance/vaccination.js';
import { eggWindowsCovering, saleRefusal, saleWindows, windowOf, windowsCovering, withdrawalEnd } from '../../shared/domain/compliance/withdrawals.js';
import { addDays, daysBetween, localDateOf } from '../../shared/platform/calendar.js';

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
    const text = saleRefusal({ type: 'bird_sale', date: '2026-03-03' }, 'C', [w]);
    expect(text).toContain('birds');
    expect(text).toContain('Amoxi (withdrawal ends 2026-03-08');
    expect(text).toContain('Sell from 2026-03-09');
  });
  it('an egg refusal names the laying days, the egg withdrawal and the first laying day whose eggs may be sold', () => {
    const w = windowOf(med('2026-03-01', { withdrawalDays: 7, eggWithdrawalDays: 3 }))!;
    const text = saleRefusal(
      {
        type: 'egg_sale',
        date: '2026-03-10',
        fromLots: [
          { laidOn: '2026-03-02', quantity: 5 },
          { laidOn: '2026-03-04', quantity: 5 },
        ],
      },
      'C',
      [w],
    );
    expect(text).toContain('laid on 2026-03-02 to 2026-03-04');
    expect(text).toContain('Amoxi (egg withdrawal ends 2026-03-04');
    expect(text).toContain('Sell eggs laid from 2026-03-05');
  });
  it('meat and eggs each have their own period; without an egg period the meat one applies to eggs', () => {
    const both = windowOf(med('2026-03-01', { withdrawalDays: 7, eggWithdrawalDays: 0 }))!;
    expect([both.meatEndDate, both.eggEndDate, both.endDate]).toEqual(['2026-03-08', null, '2026-03-08']);
    expect(eggWindowsCovering([both], ['2026-03-02'])).toEqual([]);
    const eggsOnly = windowOf(med('2026-03-01', { withdrawalDays: 0, eggWithdrawalDays: 10 }))!;
    expect([eggsOnly.meatEndDate, eggsOnly.eggEndDate, eggsOnly.endDate]).toEqual([null, '2026-03-11', '2026-03-11']);
    expect(windowsCovering([eggsOnly], '2026-03-02')).toEqual([]);
    const same = windowOf(med('2026-03-01', { withdrawalDays: 5 }))!;
    expect([same.meatEndDate, same.eggEndDate]).toEqual(['2026-03-06', '2026-03-06']);
  });
  it('eggs are judged on the day they were laid, not the day they are sold', () => {
    const w = windowOf(med('2026-11-10', { withdrawalDays: 7, treatmentDays: 1 }))!; // restricted to 2026-11-17
    const laidInside = { type: 'egg_sale', date: '2026-11-18', fromLots: [{ laidOn: '2026-11-17', quantity: 100 }] };
    const laidAfter = { type: 'egg_sale', date: '2026-11-18', fromLots: [{ laidOn: '2026-11-18', quantity: 100 }] };
    expect(saleWindows([w], laidInside)).toHaveLength(1);
    expect(saleWindows([w], laidAfter)).toHaveLength(0);
    // birds: the day of sale
    expect(saleWindows([w], { type: 'bird_sale', date: '2026-11-18' })).toHaveLength(0);
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

describe('a placement’s stocking density ahead', () => {
  const standard = (date: string) => ({ grams: 100 * (daysBetween('2026-01-01', date) + 1), source: 'breed_standard' as const });
  it('broilers: the first day birds × weight ÷ area passes the tier, up to the harvest', () => {
    // 10 000 birds on 1000 m²: 33 kg/m² at 3 300 g, i.e. day 33 (3 400 g) is the first above
    const over = firstDayOver(
      { birds: 10_000, areaM2: 1000, birdType: 'broiler', tier: 33, from: '2026-01-01', until: '2026-03-01', weightAt: standard },
      addDays,
    );
    expect(over).toMatchObject({ date: addDays('2026-01-01', 33), value: 34, limit: 33, unit: 'kg/m2', weightSource: 'breed_standard' });
    // harvested before: nothing to say; a higher tier: nothing either
    expect(
      firstDayOver({ birds: 10_000, areaM2: 1000, birdType: 'broiler', tier: 33, from: '2026-01-01', until: '2026-01-30', weightAt: standard }, addDays),
    ).toBeNull();
    expect(
      firstDayOver({ birds: 10_000, areaM2: 1000, birdType: 'broiler', tier: 42, from: '2026-01-01', until: '2026-02-10', weightAt: standard }, addDays),
    ).toBeNull();
  });
  it('layers: by head at once against 9 hens/m²; no area or no weight: nothing', () => {
    const at = (birds: number) =>
      firstDayOver({ birds, areaM2: 1000, birdType: 'layer', tier: 33, from: '2026-01-01', until: '2026-01-01', weightAt: () => null }, addDays);
    expect(at(9001)).toMatchObject({ date: '2026-01-01', unit: 'birds/m2', limit: 9 });
    expect(at(9000)).toBeNull();
    expect(firstDayOver({ birds: 1, areaM2: 0, birdType: 'layer', tier: 33, from: 'x', until: 'x', weightAt: () => null }, addDays)).toBeNull();
    expect(
      firstDayOver({ birds: 10_000, areaM2: 10, birdType: 'broiler', tier: 33, from: '2026-01-01', until: '2026-01-05', weightAt: () => null }, addDays),
    ).toBeNull();
  });
  it('the forecast’s weight between its points, linear; none outside them', () => {
    const points = [
      { date: '2026-01-08', grams: 1000 },
      { date: '2026-01-01', grams: 300 },
    ];
    expect(forecastWeightOn(points, '2026-01-01', daysBetween)).toBe(300);
    expect(forecastWeightOn(points, '2026-01-04', daysBetween)).toBe(600);
    expect(forecastWeightOn(points, '2026-01-09', daysBetween)).toBeNull();
  });
});

describe('Salmonella samplings open for the dashboards', () => {
  const hatch = '2026-01-01';
  it('due while the window is open, with the days left; overdue once missed until a sample follows', () => {
    const asOf = addDays(hatch, 23 * 7);
    expect(openSampling(layerSampling(hatch, [], asOf), [], asOf)).toEqual([
      { status: 'due', from: addDays(hatch, 22 * 7), dueBy: addDays(hatch, 26 * 7), daysLeft: 22, daysOverdue: 0, lastSampleDate: null },
    ]);
    const later = addDays(hatch, 26 * 7 + 10);
    expect(openSampling(layerSampling(hatch, [], later), [], later)).toEqual([expect.objectContaining({ status: 'overdue', daysOverdue: 10, daysLeft: 0 })]);
    // a late sample settles it
    const sample = addDays(hatch, 26 * 7 + 5);
    expect(openSampling(layerSampling(hatch, [sample], later), [sample], later)).toEqual([]);
  });
  it('broilers: from the first sale, else hatch + the target age; nothing without either', () => {
    const basis = { birdType: 'broiler', hatchDate: hatch, targetAgeDays: 42, endDate: null };
    expect(cycleSampling(basis, [], null, addDays(hatch, 30)).occurrences[0]).toMatchObject({ status: 'due', dueBy: addDays(hatch, 42) });
    expect(cycleSampling(basis, [], addDays(hatch, 35), addDays(hatch, 30)).occurrences[0]).toMatchObject({ dueBy: addDays(hatch, 35) });
    expect(cycleSampling({ ...basis, targetAgeDays: null }, [], null, addDays(hatch, 30)).occurrences).toEqual([]);
    const missed = cycleSampling(basis, [], null, addDays(hatch, 44)).occurrences;
    expect(openSampling(missed, [], addDays(hatch, 44))).toEqual([expect.objectContaining({ status: 'overdue', daysOverdue: 2 })]);
  });
});

describe('vaccination adherence', () => {
  const occ = (date: string, outcome: VaccinationOccurrence['outcome'] = null, title = 'ND'): VaccinationOccurrence => ({
    scheduleId: `S-${title}`,
    title,
    vaccine: 'ND live',
    method: 'water',
    programme: null,
    date,
    outcome,
  });
  const done = (at: string) => ({ status: 'done' as const, at, by: 'u', reason: null, movementId: 'M' });
  it('on time is completed on its date on the farm’s clock, not UTC’s', () => {
    // 2026-03-14 11:30 UTC is already 2026-03-15 in Auckland (UTC+13): late there, on time in UTC
    const o = occ('2026-03-14', done('2026-03-14T11:30:00.000Z'));
    expect(adherenceOf(o, '2026-03-20', (iso) => localDateOf(iso, 'UTC'))).toEqual({ status: 'on_time', doneOn: '2026-03-14', daysLate: 0 });
    expect(adherenceOf(o, '2026-03-20', (iso) => localDateOf(iso, 'Pacific/Auckland'))).toEqual({ status: 'late', doneOn: '2026-03-15', daysLate: 1 });
    // 2026-03-15 02:00 UTC is still 2026-03-14 in New York
    expect(adherenceOf(occ('2026-03-14', done('2026-03-15T02:00:00.000Z')), '2026-03-20', (iso) => localDateOf(iso, 'America/New_York')).status).toBe(
      'on_time',
    );
  });
  it('missed: past without any outcome; skipped on record; today’s not done is only due', () => {
    const utc = (iso: string) => localDateOf(iso, 'UTC');
    expect(adherenceOf(occ('2026-03-10'), '2026-03-11', utc).status).toBe('missed');
    expect(adherenceOf(occ('2026-03-11'), '2026-03-11', utc).status).toBe('due');
    expect(
      adherenceOf(occ('2026-03-10', { status: 'skipped', at: '2026-03-10T08:00:00Z', by: 'u', reason: 'vet advice', movementId: null }), '2026-03-11', utc)
        .status,
    ).toBe('skipped');
  });
  it('the rule: missed fails, late and skipped warn, each with its evidence; the programme’s sources join the rule’s', () => {
    const utc = (iso: string) => localDateOf(iso, 'UTC');
    const rule = vaccinationAdherenceRule(
      [
        occ('2026-03-01', done('2026-03-01T09:00:00Z'), 'A'),
        occ('2026-03-02', done('2026-03-05T09:00:00Z'), 'B'),
        occ('2026-03-03', { status: 'skipped', at: '2026-03-03T09:00:00Z', by: 'u', reason: 'flock sick', movementId: null }, 'C'),
        occ('2026-03-04', null, 'D'),
        occ('2026-03-10', null, 'E'),
      ],
      '2026-03-10',
      utc,
      [{ id: 'broiler-typical', sources: [{ title: 'MSD', url: 'https://example.org/msd' }] }],
      5,
    );
    expect(rule.status).toBe('fail');
    expect(rule.summary).toBe('1 on time, 1 late, 1 skipped, 1 missed of 5 up to 2026-03-10; 1 due today');
    expect(rule.findings.map((f) => [f.status, f.date])).toEqual([
      ['warn', '2026-03-02'],
      ['warn', '2026-03-03'],
      ['fail', '2026-03-04'],
    ]);
    expect(rule.findings[0]!.evidence).toMatchObject({ daysLate: 3, outcome: { doneOn: '2026-03-05', movementId: 'M' } });
    expect(rule.findings[1]!.message).toContain('flock sick');
    expect(rule.source).toContain('2019/6');
    expect(rule.source).toContain('https://example.org/msd');
    expect(vaccinationAdherenceRule([occ('2026-03-01', done('2026-03-01T09:00:00Z'))], '2026-03-10', utc).status).toBe('pass');
    expect(vaccinationAdherenceRule([], '2026-03-10', utc).summary).toContain('No vaccination schedule');
  });
});

describe('air quality', () => {
  const stat = (mean: number, n = 4) => ({ n, sum: mean * n, min: mean, max: mean, first: mean, firstTs: 0, last: mean, lastTs: 0 });
  it('an hour: compliant with both gases within, over with either above, partial with one, no data with neither', () => {
    expect(airHourStatus({ nh3Ppm: 20, co2Ppm: 3000 })).toBe('compliant');
    expect(airHourStatus({ nh3Ppm: 20.5, co2Ppm: null })).toBe('over');
    expect(airHourStatus({ nh3Ppm: 5, co2Ppm: 3001 })).toBe('over');
    expect(airHourStatus({ nh3Ppm: 5, co2Ppm: null })).toBe('partial');
    expect(airHourStatus({ nh3Ppm: null, co2Ppm: null })).toBe('no_data');
  });
  it('the worst-placed device decides each hour', () => {
    const means = worstHourlyMeans([
      [{ bucket: '2026-03-01T10', stats: { nh3Ppm: stat(12), co2Ppm: stat(2500) } }],
      [{ bucket: '2026-03-01T10', stats: { nh3Ppm: stat(24), temperatureC: stat(30) } }],
    ]);
    expect(means.get('2026-03-01T10')).toEqual({ nh3Ppm: 24, co2Ppm: 2500 });
  });
  it('the hours of farm-local days that ended, in UTC buckets', () => {
    const now = Date.parse('2026-03-02T00:00:00Z');
    expect(hoursOfDays('2026-03-01', '2026-03-01', now, (ms) => localDateOf(ms, 'UTC'))).toHaveLength(24);
    const auckland = hoursOfDays('2026-03-01', '2026-03-01', now, (ms) => localDateOf(ms, 'Pacific/Auckland'));
    // 2026-03-01 in Auckland (UTC+13) is 2026-02-28T11 to 2026-03-01T10 UTC
    expect([auckland[0], auckland.at(-1), auckland.length]).toEqual(['2026-02-28T11', '2026-03-01T10', 24]);
    // today's hours only once they ended
    expect(hoursOfDays('2026-03-02', '2026-03-02', Date.parse('2026-03-02T03:30:00Z'), (ms) => localDateOf(ms, 'UTC'))).toEqual([
      '2026-03-02T00',
      '2026-03-02T01',
      '2026-03-02T02',
    ]);
  });
  it('the share counts hours without data as not compliant; over fails where the limits bind, else warns', () => {
    const hours = ['2026-03-01T00', '2026-03-01T01', '2026-03-01T02', '2026-03-01T03'];
    const means = new Map([
      ['2026-03-01T00', { nh3Ppm: 10, co2Ppm: 2000 }],
      ['2026-03-01T01', { nh3Ppm: 25, co2Ppm: 2000 }],
      ['2026-03-01T02', { nh3Ppm: 10, co2Ppm: null }],
    ]);
    const h = houseAir({ id: 'H', name: 'House A' }, hours, means);
    expect(h).toMatchObject({
      hours: 4,
      compliant: 1,
      over: 1,
      partial: 1,
      noData: 1,
      compliantPct: 25,
      worst: { nh3Ppm: { ppm: 25, hour: '2026-03-01T01' } },
    });
    const binding = airQualityRule([h], true);
    expect(binding.status).toBe('fail');
    expect(binding.findings.map((f) => f.status)).toEqual(['fail', 'warn']);
    expect(binding.summary).toContain('25% of 4 hour(s)');
    expect(airQualityRule([h], false).status).toBe('warn');
    expect(airQualityRule([houseAir({ id: 'H', name: null }, hours, new Map())], true).findings[0]!.message).toContain('not checked');
    expect(airQualityRule([], true).status).toBe('warn');
    const clean = houseAir({ id: 'H', name: null }, hours.slice(0, 1), means);
    expect(airQualityRule([clean], true)).toMatchObject({ status: 'pass', findings: [] });
  });
});
