/**
 * e2e: a Hy-Line Brown layer flock from day-old chick to spent hen, on the farm's real calendar (ending
 * today), over HTTP against the stack `npm start` runs, with the scheduled alarm job invoked through
 * offline's Lambda port.
 *
 * The calendar: the grower feed arrives three days before the chicks (a delivery to the farm's stock, the
 * rearing house's bin); 3,000 day-old chicks at 0.90 each are placed in a rearing flock; ages 1–118 have a
 * daily record (a dead chick every other day, feed and water at the Hy-Line rearing intake of the birds
 * present) and a weighing of 100 birds every week 1 % above the Hy-Line rearing weight; Salmonella is
 * sampled on arrival and two weeks before the move. At 17 weeks (day 119) the pullets move to a laying flock
 * in a barn (floor) house of 400 m² (2,941 pullets: 7.35 hens/m²) at the rearing cycle's cost per pullet; the layer feed was
 * delivered to that house three days before. Ages 119–160 have a daily record: a dead hen every third day,
 * feed and water at the Hy-Line intake of the hens present, the light stepped up by 1 h a week from 10 h
 * (darkness the rest of the day, in one period), eggs at the guide's hen-day from week 18 and, on one day a
 * week, the eggs graded with their double yolks and weight. A treatment at 20 weeks (meat withdrawal 0,
 * eggs 7 days): a sale of eggs laid in the window is refused, the eggs laid after it are sold by lot and
 * grade, those laid in it are recorded lost. Today the hens are sold and the cycle closed.
 *
 * What is compressed, and why: a laying flock lays for some 60–80 weeks; here the lay is its first six
 * weeks (the rise from the first egg at 18 weeks to 91 % hen-day at 23 weeks) and the hens are sold as spent
 * at 23 weeks, so the file runs in well under a minute. Every day of the laying period has its record: a
 * day without eggs would count as a day of zero eggs, so the lay cannot be sampled.
 * Source: Hy-Line International, Hy-Line Brown Commercial Layers Performance Guide (weekly weight, feed,
 * water, hen-day and egg weight, transcribed in shared/domain/analytics/standards/hy-line-brown.ts).
 *
 * What it proves: normal layer data raise no alarm; the pullet cost follows the hens; the egg withdrawal
 * holds the eggs by their laying day; the KPIs, the financials and the compliance report equal a hand
 * computation from the records posted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standardWeightGrams } from '../../shared/domain/analytics/breed-standards.js';
import { HY_LINE_BROWN } from '../../shared/domain/analytics/standards/hy-line-brown.js';
import { dayFromToday, expectNoAnomalies, expectStatus, flockDays } from '../support/broiler-farm.js';
import { checkedClient } from '../support/contract.js';
import { client } from '../support/http.js';
import { gradesOf, hyLineEggGrams, hyLineEggs, hyLineFeedKg, hyLineFlock, hyLineWaterLiters, layerClimate, layerFarm } from '../support/layer-farm.js';
import { startOffline, type Offline } from '../support/offline.js';

type Json = Record<string, any>;

const AGE_TODAY = 161;
const MOVE_AGE = 119;
const MED_AGE = 140;
const EGG_WITHDRAWAL_DAYS = 7;
const { start: HATCH, dateAt } = flockDays(AGE_TODAY);
const CHICKS = 3000;
const CHICK_COST = 0.9;
const GROWER_PRICE = 0.45;
const LAYER_PRICE = 0.5;
const LAYING_HOUSE_M2 = 400;

const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

interface Day {
  age: number;
  present: number;
  deaths: number;
  feedKg: number;
  waterLiters: number;
  eggs: number;
  lightHours?: number;
  grades?: Record<string, number>;
}

/** The records to post, from the guide: rearing ages 1–118, laying ages 119–160. */
function plan() {
  const rearing: Day[] = [];
  let alive = CHICKS;
  for (let age = 1; age < MOVE_AGE; age++) {
    const deaths = age % 2 === 0 ? 1 : 0;
    rearing.push({ age, present: alive, deaths, feedKg: hyLineFeedKg(age, alive), waterLiters: hyLineWaterLiters(age, alive), eggs: 0 });
    alive -= deaths;
  }
  const pullets = alive;
  const laying: Day[] = [];
  for (let age = MOVE_AGE; age < AGE_TODAY; age++) {
    const deaths = age % 3 === 0 ? 1 : 0;
    const eggs = hyLineEggs(age, alive);
    const graded = eggs > 0 && (age - MOVE_AGE) % 7 === 0;
    laying.push({
      age,
      present: alive,
      deaths,
      feedKg: hyLineFeedKg(age, alive),
      waterLiters: hyLineWaterLiters(age, alive),
      eggs,
      lightHours: 10 + Math.floor((age - MOVE_AGE) / 7),
      ...(graded ? { grades: gradesOf(eggs) } : {}),
    });
    alive -= deaths;
  }
  return { rearing, pullets, laying, hens: alive };
}
const { rearing: REARING, pullets: PULLETS, laying: LAYING, hens: HENS } = plan();
const LAYING_DAYS = LAYING.filter((d) => d.age >= LAYING.find((x) => x.eggs > 0)!.age);
const EGGS = sum(LAYING_DAYS.map((d) => d.eggs));
const inWindow = (d: Day) => d.age >= MED_AGE && d.age <= MED_AGE + EGG_WITHDRAWAL_DAYS;
const weighingGrams = (age: number) => Math.round(standardWeightGrams(HY_LINE_BROWN, age)!.grams * 1.01);
const lots = (days: Day[], qty: (d: Day) => number) => days.filter((d) => qty(d) > 0).map((d) => ({ laidOn: dateAt(d.age), quantity: qty(d) }));

describe('a Hy-Line Brown flock over HTTP: reared, moved at 17 weeks, laying, treated, sold; no alarm, KPIs by hand', { timeout: 180_000 }, () => {
  let api: Offline;
  const http = checkedClient(client(() => api));
  let token: string;
  let farmId: string;
  let rear: { flockId: string; cycleId: string; base: string };
  let lay: { flockId: string; cycleId: string; base: string };
  let rearingFinancials: Json;
  let refused: { status: number; body: Json; text: string };
  let rulesJob: Json;

  const post = async (path: string, body: Json, what: string) => {
    const res = await http('POST', path, { token, body });
    expectStatus(res, 201, what);
    return res;
  };
  const record = async (base: string, d: Day, feedType: string) => {
    const body: Json = { date: dateAt(d.age), deaths: d.deaths, feedKg: d.feedKg, feedType, waterLiters: d.waterLiters, ...layerClimate(d.age) };
    if (d.lightHours !== undefined) Object.assign(body, { lightHours: d.lightHours, longestDarkHours: 24 - d.lightHours });
    if (d.eggs > 0) body.eggsCollected = d.eggs;
    if (d.grades) Object.assign(body, { eggGrades: d.grades, eggsDoubleYolk: Math.round(d.eggs * 0.01), averageEggWeightGrams: hyLineEggGrams(d.age) });
    const res = await post(`${base}/daily-records`, body, `POST daily record age ${d.age}`);
    expect(res.body.warnings, `age ${d.age}: ${res.text}`).toBeUndefined();
  };
  const financials = async (c: { flockId: string; cycleId: string }) => {
    const res = await http('GET', `/api/v2/analytics/financials/${c.flockId}/${c.cycleId}`, { token });
    expectStatus(res, 200, 'GET financials');
    return res.body.data.financials as Json;
  };
  const report = async (c: { flockId: string; cycleId: string }) => {
    const res = await http('GET', `/api/v1/compliance/cycles/${c.flockId}/${c.cycleId}/report`, { token });
    expectStatus(res, 200, 'GET compliance report');
    return Object.fromEntries((res.body.data.rules as Json[]).map((r) => [r.rule, r])) as Record<string, Json>;
  };

  beforeAll(async () => {
    api = await startOffline();
    const farm = await layerFarm(http, api, {
      farm: 'Layer farm',
      rearingHouse: { name: 'Rearing', usableAreaM2: 300, capacity: 4000, type: 'floor' },
      layingHouse: { name: 'Barn', usableAreaM2: LAYING_HOUSE_M2, capacity: 3600, type: 'floor' },
      manager: { email: 'manager@layer-flock.example.com', password: 'manager-layer-flock-password-1' },
    });
    ({ token, farmId } = farm);
    const grower = Math.ceil(sum(REARING.map((d) => d.feedKg)) / 1000) * 1000 + 1000;
    await post(
      '/api/v1/inventory/movements',
      {
        farmId,
        type: 'feed_delivery',
        date: dayFromToday(-AGE_TODAY - 3),
        feedType: 'grower',
        quantityKg: grower,
        unitPrice: GROWER_PRICE,
        houseId: farm.rearingHouseId,
      },
      'POST farm grower delivery before the chicks',
    );
    rear = await hyLineFlock(http, token, { name: 'Pullets', farmId, houseId: farm.rearingHouseId, hatchDate: HATCH, startDate: HATCH });
    await post(`${rear.base}/movements`, { type: 'bird_inflow', date: HATCH, quantity: CHICKS, unitCost: CHICK_COST }, 'POST chicks');
    await post('/api/v1/compliance/samples', { flockId: rear.flockId, date: HATCH, kind: 'other' }, 'POST day-old sample');
    for (const d of REARING) {
      await record(rear.base, d, 'grower');
      if (d.age % 7 === 0) await post(`${rear.base}/weights`, { date: dateAt(d.age), grams: weighingGrams(d.age), sampleSize: 100 }, `POST weighing ${d.age}`);
      if (d.age === MOVE_AGE - 9)
        await post('/api/v1/compliance/samples', { flockId: rear.flockId, date: dateAt(d.age), kind: 'boot_swabs' }, 'POST pre-move sample');
    }
    await post(`${rear.base}/weights`, { date: dateAt(MOVE_AGE), grams: weighingGrams(MOVE_AGE), sampleSize: 100 }, 'POST weighing at the move');
    rearingFinancials = await financials(rear);

    const layerFeed = Math.ceil(sum(LAYING.map((d) => d.feedKg)) / 1000) * 1000 + 1000;
    await post(
      '/api/v1/inventory/movements',
      {
        farmId,
        type: 'feed_delivery',
        date: dateAt(MOVE_AGE - 3),
        feedType: 'layer',
        quantityKg: layerFeed,
        unitPrice: LAYER_PRICE,
        houseId: farm.layingHouseId,
      },
      'POST farm layer delivery',
    );
    lay = await hyLineFlock(http, token, { name: 'Hens', farmId, houseId: farm.layingHouseId, hatchDate: HATCH, startDate: dateAt(MOVE_AGE) });
    await post(
      `${rear.base}/movements`,
      {
        type: 'bird_transfer_out',
        date: dateAt(MOVE_AGE),
        quantity: PULLETS,
        counterpartFlockId: lay.flockId,
        unitCost: rearingFinancials.costPerBirdAlive.value,
      },
      'POST transfer of the pullets',
    );
    const closed = await http('POST', `${rear.base}/close`, { token, body: { endDate: dateAt(MOVE_AGE) } });
    expectStatus(closed, 200, 'close the rearing cycle');

    for (const d of LAYING) {
      if (d.age === MED_AGE)
        await post(
          `${lay.base}/movements`,
          {
            type: 'medication',
            date: dateAt(d.age),
            product: 'Amoxicillin',
            dose: '20 mg/kg for 1 day',
            withdrawalDays: 0,
            eggWithdrawalDays: EGG_WITHDRAWAL_DAYS,
          },
          'POST medication',
        );
      await record(lay.base, d, 'layer');
    }
    refused = await http('POST', `${lay.base}/movements`, {
      token,
      body: { type: 'egg_sale', date: dateAt(MED_AGE + 9), quantity: 500, fromLots: [{ laidOn: dateAt(MED_AGE + 3), quantity: 500 }] },
    });
    const held = LAYING.filter(inWindow);
    await post(
      `${lay.base}/movements`,
      {
        type: 'egg_loss',
        date: dateAt(MED_AGE + 8),
        quantity: sum(held.map((d) => (d.grades ? 0 : d.eggs))),
        fromLots: lots(held, (d) => (d.grades ? 0 : d.eggs)),
      },
      'POST loss of the ungraded held eggs',
    );
    for (const grade of ['S', 'M', 'L'])
      await post(
        `${lay.base}/movements`,
        {
          type: 'egg_loss',
          date: dateAt(MED_AGE + 8),
          grade,
          quantity: sum(held.map((d) => d.grades?.[grade] ?? 0)),
          fromLots: lots(held, (d) => d.grades?.[grade] ?? 0),
        },
        `POST loss of the held ${grade} eggs`,
      );
    const after = LAYING.filter((d) => d.age > MED_AGE + EGG_WITHDRAWAL_DAYS);
    for (const grade of ['S', 'M', 'L'])
      await post(
        `${lay.base}/movements`,
        {
          type: 'egg_sale',
          date: dateAt(AGE_TODAY),
          grade,
          quantity: sum(after.map((d) => d.grades?.[grade] ?? 0)),
          fromLots: lots(after, (d) => d.grades?.[grade] ?? 0),
          unitPrice: 0.12,
        },
        `POST sale of ${grade} eggs`,
      );
    await post(
      `${lay.base}/movements`,
      {
        type: 'egg_sale',
        date: dateAt(AGE_TODAY),
        quantity: sum(after.map((d) => (d.grades ? 0 : d.eggs))),
        fromLots: lots(after, (d) => (d.grades ? 0 : d.eggs)),
        unitPrice: 0.11,
      },
      'POST sale of the ungraded eggs',
    );

    const scheduled = { version: '0', id: 'e2e', 'detail-type': 'Scheduled Event', source: 'aws.events', time: new Date().toISOString(), detail: {} };
    rulesJob = (await api.invoke('rulesJob', scheduled)) as Json;
  }, 170_000);
  afterAll(async () => {
    await api?.stop();
  });

  it('rearing: the weighings against the Hy-Line rearing standard; the rearing report passes density and Salmonella sampling', async () => {
    const res = await http('GET', `/api/v2/analytics/breed/${rear.flockId}/${rear.cycleId}`, { token });
    expectStatus(res, 200, 'GET breed comparison');
    expect(res.body.data.comparison.standard).toMatchObject({ id: 'hy-line-brown' });
    const week12 = (res.body.data.comparison.days as Json[]).find((d) => d.ageDays === 84)!;
    const standard = standardWeightGrams(HY_LINE_BROWN, 84)!.grams;
    expect(week12.bodyWeight).toMatchObject({ actual: weighingGrams(84), standard, unit: 'g' });
    expect(week12.bodyWeight.deviationPct).toBeCloseTo(((weighingGrams(84) - standard) / standard) * 100, 1);
    expect(Math.abs(week12.bodyWeight.deviationPct)).toBeLessThan(1.5);
    const rules = await report(rear);
    expect(rules.stocking_density!.status, JSON.stringify(rules.stocking_density)).toBe('pass');
    expect(rules.salmonella_sampling!.status, JSON.stringify(rules.salmonella_sampling)).toBe('pass');
  });

  it('the move: the pullets carry the rearing cost per bird alive (chicks and grower feed), and the laying cycle counts them as its pullet cost', async () => {
    const feedKg = sum(REARING.map((d) => d.feedKg));
    expect(rearingFinancials.costs.chicks.amount).toBe(round(CHICKS * CHICK_COST, 2));
    expect(rearingFinancials.costs.feed.amount).toBeCloseTo(feedKg * GROWER_PRICE, 2);
    const unitCost = rearingFinancials.costPerBirdAlive.value;
    expect(unitCost).toBeCloseTo(rearingFinancials.costs.total / PULLETS, 2);
    const f = await financials(lay);
    expect(f.costs.pullets).toMatchObject({ quantity: PULLETS, averageUnitPrice: unitCost });
    expect(f.costs.pullets.amount).toBeCloseTo(PULLETS * unitCost, 2);
    expect(f.layer.hensHoused).toBe(PULLETS);
    expect(f.layer.costPerDozenEggs.value).toBeCloseTo((f.costs.total * 12) / EGGS, 2);
  });

  it('the lay over the cycle: hen-day and feed per dozen equal a hand computation from the records', async () => {
    const henDays = sum(LAYING_DAYS.map((d) => d.present));
    const layingFeed = sum(LAYING_DAYS.map((d) => d.feedKg));
    const res = await http('GET', `/api/v2/analytics/cycle/${lay.flockId}/${lay.cycleId}`, { token });
    expectStatus(res, 200, 'GET v2 cycle');
    const k = res.body.data.kpis;
    expect(k.henDayPct.value, JSON.stringify(k.henDayPct)).toBeCloseTo((EGGS / henDays) * 100, 2);
    expect(k.feedPerDozenEggs.value, JSON.stringify(k.feedPerDozenEggs)).toBeCloseTo((layingFeed * 12) / EGGS, 2);
    expect(k.layingPeriod).toEqual({ from: dateAt(LAYING_DAYS[0]!.age), to: dateAt(AGE_TODAY - 1), days: LAYING_DAYS.length });
    expect(k.eggs).toMatchObject({ collected: EGGS, doubleYolk: sum(LAYING.map((d) => (d.grades ? Math.round(d.eggs * 0.01) : 0))) });
    // the peak: production still rising, the last complete age week (week 22: the 7 days ending at 154 days; ages 155–160 are 6 days of week 23)
    const week22 = LAYING.filter((d) => d.age >= 148 && d.age <= 154);
    expect(k.peakProduction).toMatchObject({ ageWeek: 22, from: dateAt(148), to: dateAt(154) });
    expect(k.peakProduction.henDayPct.value).toBeCloseTo((sum(week22.map((d) => d.eggs)) / sum(week22.map((d) => d.present))) * 100, 2);
    // a graded day of the lay against the guide: hen-day, water and egg weight on the standard (so no water alarm)
    const breed = await http('GET', `/api/v2/analytics/breed/${lay.flockId}/${lay.cycleId}`, { token });
    expectStatus(breed, 200, 'GET breed comparison of the lay');
    const day154 = (breed.body.data.comparison.days as Json[]).find((d) => d.ageDays === 154)!;
    for (const metric of ['henDayPct', 'waterIntake', 'dailyFeedIntake', 'eggWeight'])
      expect(Math.abs(day154[metric].deviationPct), `${metric}: ${JSON.stringify(day154[metric])}`).toBeLessThan(0.5);
    const cycle = await http('GET', lay.base, { token });
    expectStatus(cycle, 200, 'GET laying cycle');
    expect(cycle.body.data).toMatchObject({ ageDays: AGE_TODAY, birds: { alive: HENS } });
  });

  it('the egg withdrawal: a sale of eggs laid in the window is refused naming the laying days; the compliance report passes', async () => {
    expect(refused.status, refused.text).toBe(409);
    const ends = MED_AGE + EGG_WITHDRAWAL_DAYS;
    for (const named of [`laid on ${dateAt(MED_AGE + 3)}`, 'Amoxicillin', `egg withdrawal ends ${dateAt(ends)}`, `Sell eggs laid from ${dateAt(ends + 1)}`])
      expect(refused.text).toContain(named);
    const rules = await report(lay);
    for (const rule of ['withdrawal_sales', 'lighting', 'stocking_density'])
      expect(rules[rule]!.status, `${rule}: ${JSON.stringify(rules[rule])}`).toBe('pass');
    expect(rules.lighting!.findings).toEqual([]);
    expect(rules.lighting!.summary).toContain(`${LAYING.length} day(s) with a photoperiod recorded`);
    expect(rules.withdrawal_sales!.summary).toBe('4 sale(s), none during a withdrawal period');
    // what is left on the farm: the eggs laid before the treatment, none of the held ones
    const before = LAYING.filter((d) => d.eggs > 0 && d.age < MED_AGE);
    const stock = await http('GET', `/api/v1/inventory/stock?farmId=${farmId}`, { token });
    expectStatus(stock, 200, 'GET stock');
    const graded = (g: string) => sum(before.map((d) => d.grades?.[g] ?? 0));
    expect(stock.body.data.eggs).toMatchObject({
      count: sum(before.map((d) => d.eggs)),
      byGrade: { S: graded('S'), M: graded('M'), L: graded('L') },
      ungraded: sum(before.map((d) => (d.grades ? 0 : d.eggs))),
    });
    expect(rules.stocking_density!.summary).toContain(`peak ${round(PULLETS / LAYING_HOUSE_M2, 2)} birds/m2`);
  });

  it('normal data raise nothing: no anomaly from a rule or a detector, none on the dashboard', async () => {
    expect(rulesJob, JSON.stringify(rulesJob)).toMatchObject({ status: 'done', result: { rules: { errors: [] }, detectors: { errors: [] } } });
    await expectNoAnomalies(http, token, farmId);
    for (const c of [rear, lay]) {
      const v2 = await http('GET', `/api/v2/analytics/anomalies/${c.flockId}/${c.cycleId}`, { token });
      expectStatus(v2, 200, 'GET v2 anomalies');
      expect(v2.body.data.detections.map((d: Json) => `${d.bucket} ${d.metric} ${d.detector} ${d.direction}`)).toEqual([]);
    }
    const manager = await http('GET', '/api/v1/dashboard', { token });
    expectStatus(manager, 200, 'GET manager dashboard');
    expect(manager.body.data.openAnomalies.count).toBe(0);
  });

  it('depletion: the spent hens are sold, the cycle closed, and the dashboard no longer shows the flock', async () => {
    const before = await http('GET', '/api/v1/dashboard', { token });
    expect((before.body.data.flocks as Json[]).map((f) => `${f.kind} ${f.flockId}`)).toEqual([`layer ${lay.flockId}`]);
    await post(
      `${lay.base}/movements`,
      { type: 'bird_sale', date: dateAt(AGE_TODAY), quantity: HENS, totalWeightKg: round(HENS * 1.9, 1) },
      'POST spent hens sale',
    );
    const closed = await http('POST', `${lay.base}/close`, { token, body: { endDate: dateAt(AGE_TODAY) } });
    expectStatus(closed, 200, 'close the laying cycle');
    expect(closed.body.data).toMatchObject({ status: 'closed', birds: { alive: 0, sold: HENS } });
    const after = await http('GET', '/api/v1/dashboard', { token });
    expectStatus(after, 200, 'GET manager dashboard');
    const ids = [...(after.body.data.flocks as Json[]), ...(after.body.data.emptiedFlocks as Json[])].map((f) => f.flockId ?? f.id);
    expect(ids).not.toContain(lay.flockId);
    expect(ids).not.toContain(rear.flockId);
  });
});
