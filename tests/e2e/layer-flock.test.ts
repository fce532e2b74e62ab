/**
 * e2e: a Hy-Line Brown layer flock's whole life, from day-old chick to spent hen at 90 weeks, on the farm's
 * real calendar (depletion today), over HTTP against the stack `npm start` runs, with the scheduled alarm
 * job invoked through offline's Lambda port. The day-by-day plan is tests/support/layer-flock-plan.ts.
 *
 * The calendar: the grower feed arrives three days before the chicks; 3,000 day-old chicks at 0.90 each are
 * reared (a daily record every day, a weighing every week 1 % above the Hy-Line rearing weight, the light
 * cut to 10 h at 10 weeks) and sampled for Salmonella on arrival and two weeks before the move. At 17 weeks
 * the pullets move to a 400 m² barn at the rearing cycle's cost per pullet, and the rearing cycle closes. The
 * layer feed arrives every 10 weeks, three days before it is needed. Every laying day to 90 weeks has its
 * record (eggs at the guide's hen-day, the light stepped up to 16 h); one day a week the eggs are graded;
 * the eggs are sold from their lots every second week; the hens are weighed every fourth week and sampled
 * every 14 weeks from 24 weeks. A treatment at 40 weeks (meat withdrawal 0, eggs 7 days): a sale of eggs laid
 * in the window is refused, those eggs are destroyed. Today the spent hens are sold and the cycle closed.
 * Every day has its record, as on a farm that keeps its books: the figures count a day without its record as
 * missing (not as a day of zero eggs), so a sampled lay would test less than the whole of it.
 *
 * What it proves: normal layer data raise no alarm over the whole lay; the pullet cost follows the hens; the
 * egg withdrawal holds the eggs by their laying day; hen-day, hen-housed eggs, egg mass, feed per kg egg,
 * the peak, mortality, livability, the financials and the compliance report equal a hand computation from
 * the records posted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standardWeightGrams } from '../../shared/domain/analytics/breed-standards.js';
import { HY_LINE_BROWN } from '../../shared/domain/analytics/standards/hy-line-brown.js';
import { dayFromToday, expectNoAnomalies, expectStatus, flockDays } from '../support/broiler-farm.js';
import { checkedClient } from '../support/contract.js';
import { client } from '../support/http.js';
import { hyLineFlock, layerClimate, layerFarm } from '../support/layer-farm.js';
import {
  AGE_TODAY,
  ageWeek,
  CHICK_COST,
  CHICKS,
  type Day,
  EGG_WITHDRAWAL_DAYS,
  eggPlan,
  flockPlan,
  GROWER_PRICE,
  inWindow,
  isWeighingAge,
  LAYING_HOUSE_M2,
  layerPrice,
  MED_AGE,
  MOVE_AGE,
  SAMPLE_AGES,
  type Sale,
  SPENT_HEN_KG,
  SPENT_HEN_PRICE,
  sum,
  weighingGrams,
} from '../support/layer-flock-plan.js';
import { startOffline, type Offline } from '../support/offline.js';

type Json = Record<string, any>;

const { start: HATCH, dateAt } = flockDays(AGE_TODAY);
const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;

const { rearing: REARING, pullets: PULLETS, laying: LAYING, hens: HENS } = flockPlan();
const { sales: SALES, held: HELD } = eggPlan(LAYING);
const FIRST_EGG_AGE = LAYING.find((d) => d.eggs > 0)!.age;
const LAYING_DAYS = LAYING.filter((d) => d.age >= FIRST_EGG_AGE);
const EGGS = sum(LAYING_DAYS.map((d) => d.eggs));
/** The layer feed deliveries: every 10 weeks from three days before the move, each the next 10 weeks' feed and a tonne more. */
const DELIVERIES = Array.from({ length: Math.ceil(LAYING.length / 70) }, (_, k) => {
  const age = MOVE_AGE - 3 + 70 * k;
  const need = sum(LAYING.filter((d) => d.age >= MOVE_AGE + 70 * k && d.age < MOVE_AGE + 70 * (k + 1)).map((d) => d.feedKg));
  return { age, quantityKg: Math.ceil(need / 1000) * 1000 + 1000, unitPrice: layerPrice(age) };
});
const lotsOf = (s: Pick<Sale, 'lots'>) => s.lots.map((l) => ({ laidOn: dateAt(l.age), quantity: l.quantity }));

describe('a Hy-Line Brown flock over HTTP: reared, moved at 17 weeks, laying to 90 weeks, treated, depleted; no alarm, figures by hand', {
  timeout: 300_000,
}, () => {
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
    const body: Json = {
      date: dateAt(d.age),
      deaths: d.deaths,
      feedKg: d.feedKg,
      feedType,
      waterLiters: d.waterLiters,
      lightHours: d.lightHours,
      longestDarkHours: 24 - d.lightHours,
      ...layerClimate(d.age),
    };
    if (d.eggs > 0) body.eggsCollected = d.eggs;
    if (d.grades) Object.assign(body, { eggGrades: d.grades, eggsDoubleYolk: d.doubleYolk, averageEggWeightGrams: d.eggGrams });
    const res = await post(`${base}/daily-records`, body, `POST daily record age ${d.age}`);
    expect(res.body.warnings, `age ${d.age}: ${res.text}`).toBeUndefined();
  };
  const sell = (s: Sale, type: 'egg_sale' | 'egg_loss') =>
    post(
      `${lay.base}/movements`,
      {
        type,
        date: dateAt(s.age),
        quantity: s.quantity,
        fromLots: lotsOf(s),
        ...(s.grade ? { grade: s.grade } : {}),
        ...(type === 'egg_sale' ? { unitPrice: s.unitPrice } : {}),
      },
      `POST ${type} of ${s.grade ?? 'ungraded'} eggs at age ${s.age}`,
    );
  const weigh = (base: string, age: number) =>
    post(`${base}/weights`, { date: dateAt(age), grams: weighingGrams(age), sampleSize: 100 }, `POST weighing ${age}`);
  const sample = (flockId: string, age: number, kind: string) =>
    post('/api/v1/compliance/samples', { flockId, date: dateAt(age), kind }, `POST ${kind} sample at ${age}`);
  const layerFeed = (age: number, quantityKg: number, unitPrice: number, houseId: string) =>
    post(
      '/api/v1/inventory/movements',
      { farmId, type: 'feed_delivery', date: dateAt(age), feedType: 'layer', quantityKg, unitPrice, houseId },
      `POST layer feed delivery at age ${age}`,
    );
  const get = async (path: string, what: string) => {
    const res = await http('GET', path, { token });
    expectStatus(res, 200, what);
    return res.body.data as Json;
  };
  const financials = async (c: { flockId: string; cycleId: string }) =>
    (await get(`/api/v2/analytics/financials/${c.flockId}/${c.cycleId}`, 'GET financials')).financials as Json;
  const report = async (c: { flockId: string; cycleId: string }) =>
    Object.fromEntries(
      ((await get(`/api/v1/compliance/cycles/${c.flockId}/${c.cycleId}/report`, 'GET compliance report')).rules as Json[]).map((r) => [r.rule, r]),
    ) as Record<string, Json>;

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
      if (d.age === DELIVERIES[0]!.age) await layerFeed(d.age, DELIVERIES[0]!.quantityKg, DELIVERIES[0]!.unitPrice, farm.layingHouseId);
      await record(rear.base, d, 'grower');
      if (isWeighingAge(d.age)) await weigh(rear.base, d.age);
      if (d.age === MOVE_AGE - 9) await sample(rear.flockId, d.age, 'boot_swabs');
    }
    await weigh(rear.base, MOVE_AGE);
    rearingFinancials = await financials(rear);

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
      const delivery = DELIVERIES.find((x) => x.age === d.age);
      if (delivery) await layerFeed(d.age, delivery.quantityKg, delivery.unitPrice, farm.layingHouseId);
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
      if (isWeighingAge(d.age)) await weigh(lay.base, d.age);
      if (SAMPLE_AGES.includes(d.age)) await sample(lay.flockId, d.age, 'faeces');
      const sales = SALES.filter((s) => s.age === d.age);
      if (sales.length && d.age > MED_AGE && d.age <= MED_AGE + EGG_WITHDRAWAL_DAYS)
        refused = await http('POST', `${lay.base}/movements`, {
          token,
          body: { type: 'egg_sale', date: dateAt(d.age), quantity: 500, fromLots: [{ laidOn: dateAt(MED_AGE + 3), quantity: 500 }] },
        });
      for (const s of sales) await sell(s, 'egg_sale');
      for (const s of HELD.filter((h) => h.age === d.age)) await sell(s, 'egg_loss');
    }
    for (const s of SALES.filter((x) => x.age === AGE_TODAY)) await sell(s, 'egg_sale');

    const scheduled = { version: '0', id: 'e2e', 'detail-type': 'Scheduled Event', source: 'aws.events', time: new Date().toISOString(), detail: {} };
    rulesJob = (await api.invoke('rulesJob', scheduled)) as Json;
  }, 900_000);
  afterAll(async () => {
    await api?.stop();
  });

  it('rearing: the weighings against the Hy-Line rearing standard; the rearing report passes density, lighting and Salmonella sampling', async () => {
    const data = await get(`/api/v2/analytics/breed/${rear.flockId}/${rear.cycleId}`, 'GET breed comparison');
    expect(data.comparison.standard).toMatchObject({ id: 'hy-line-brown' });
    const week12 = (data.comparison.days as Json[]).find((d) => d.ageDays === 84)!;
    const standard = standardWeightGrams(HY_LINE_BROWN, 84)!.grams;
    expect(week12.bodyWeight).toMatchObject({ actual: weighingGrams(84), standard, unit: 'g' });
    expect(week12.bodyWeight.deviationPct).toBeCloseTo(((weighingGrams(84) - standard) / standard) * 100, 1);
    const rules = await report(rear);
    for (const rule of ['stocking_density', 'salmonella_sampling', 'lighting'])
      expect(rules[rule]!.status, `${rule}: ${JSON.stringify(rules[rule])}`).toBe('pass');
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
  });

  it('the lay to 90 weeks: hen-day, hen-housed eggs, egg mass, feed per kg egg and per dozen, the peak, mortality and livability equal a hand computation', async () => {
    const henDays = sum(LAYING_DAYS.map((d) => d.present));
    const layingFeed = sum(LAYING_DAYS.map((d) => d.feedKg));
    const graded = LAYING.filter((d) => d.eggGrams !== undefined);
    const eggGrams = sum(graded.map((d) => d.eggs * d.eggGrams!)) / sum(graded.map((d) => d.eggs));
    const k = (await get(`/api/v2/analytics/cycle/${lay.flockId}/${lay.cycleId}`, 'GET v2 cycle')).kpis as Json;
    expect(k.layingPeriod).toEqual({ from: dateAt(FIRST_EGG_AGE), to: dateAt(AGE_TODAY - 1), days: LAYING_DAYS.length });
    expect(k.henDayPct.value, JSON.stringify(k.henDayPct)).toBeCloseTo((EGGS / henDays) * 100, 2);
    expect(k.henHousedEggs.value, JSON.stringify(k.henHousedEggs)).toBeCloseTo(EGGS / PULLETS, 2);
    expect(k.eggWeightGrams.value, JSON.stringify(k.eggWeightGrams)).toBeCloseTo(eggGrams, 1);
    expect(k.eggMassGrams.value, JSON.stringify(k.eggMassGrams)).toBeCloseTo((EGGS / henDays) * eggGrams, 2);
    expect(k.feedPerKgEgg.value, JSON.stringify(k.feedPerKgEgg)).toBeCloseTo(layingFeed / ((EGGS * eggGrams) / 1000), 2);
    expect(k.feedPerDozenEggs.value, JSON.stringify(k.feedPerDozenEggs)).toBeCloseTo((layingFeed * 12) / EGGS, 2);
    expect(k.eggs).toMatchObject({ collected: EGGS, doubleYolk: sum(graded.map((d) => d.doubleYolk!)) });
    // the egg-quality trend gives the same figures from the same definitions over its range: hen-day, and double yolks of the graded eggs
    const quality = await get(`/api/v2/analytics/egg-quality-trend/${lay.flockId}?cycleId=${lay.cycleId}&window=week&periods=52`, 'GET egg-quality trend');
    const inRange = (d: Day) => dateAt(d.age) >= quality.overall.from && dateAt(d.age) <= quality.overall.to;
    const range = LAYING_DAYS.filter(inRange);
    const gradedInRange = graded.filter(inRange);
    expect(quality.overall.henDayPct.value).toBeCloseTo((sum(range.map((d) => d.eggs)) / sum(range.map((d) => d.present))) * 100, 2);
    expect(quality.overall.doubleYolkPct.value).toBeCloseTo((sum(gradedInRange.map((d) => d.doubleYolk!)) / sum(gradedInRange.map((d) => d.eggs))) * 100, 2);
    // the peak: the complete age week with the highest hen-day
    const weeks = new Map<number, Day[]>();
    for (const d of LAYING_DAYS) weeks.set(ageWeek(d.age), [...(weeks.get(ageWeek(d.age)) ?? []), d]);
    const rates = [...weeks]
      .filter(([, days]) => days.length === 7)
      .map(([week, days]) => ({ week, pct: (sum(days.map((d) => d.eggs)) / sum(days.map((d) => d.present))) * 100 }));
    const peak = rates.reduce((a, b) => (b.pct > a.pct ? b : a));
    expect(k.peakProduction).toMatchObject({ ageWeek: peak.week, from: dateAt(peak.week * 7 - 6), to: dateAt(peak.week * 7) });
    expect(k.peakProduction.henDayPct.value).toBeCloseTo(peak.pct, 2);
    // mortality and livability over the laying cycle: the hens that died of those housed
    const deaths = sum(LAYING.map((d) => d.deaths));
    expect(k.mortalityPct.value, JSON.stringify(k.mortalityPct)).toBeCloseTo((deaths / PULLETS) * 100, 2);
    expect(k.livabilityPct.value, JSON.stringify(k.livabilityPct)).toBeCloseTo(((PULLETS - deaths) / PULLETS) * 100, 2);
    const cycle = await get(lay.base, 'GET laying cycle');
    expect(cycle).toMatchObject({ ageDays: AGE_TODAY, birds: { alive: HENS } });
    // a late graded day against the guide: hen-day, water, feed and egg weight on the standard
    const breed = await get(`/api/v2/analytics/breed/${lay.flockId}/${lay.cycleId}`, 'GET breed comparison of the lay');
    const day = (breed.comparison.days as Json[]).find((d) => d.ageDays === graded.at(-1)!.age)!;
    for (const metric of ['henDayPct', 'waterIntake', 'dailyFeedIntake', 'eggWeight'])
      expect(Math.abs(day[metric].deviationPct), `${metric}: ${JSON.stringify(day[metric])}`).toBeLessThan(0.5);
  });

  it('the egg withdrawal: a sale of eggs laid in the window is refused naming the laying days; the held eggs are destroyed; the compliance report passes', async () => {
    expect(refused.status, refused.text).toBe(409);
    const ends = MED_AGE + EGG_WITHDRAWAL_DAYS;
    for (const named of [`laid on ${dateAt(MED_AGE + 3)}`, 'Amoxicillin', `egg withdrawal ends ${dateAt(ends)}`, `Sell eggs laid from ${dateAt(ends + 1)}`])
      expect(refused.text).toContain(named);
    expect(sum(HELD.map((s) => s.quantity))).toBe(sum(LAYING.filter((d) => inWindow(d.age)).map((d) => d.eggs)));
    const rules = await report(lay);
    for (const rule of ['withdrawal_sales', 'lighting', 'stocking_density', 'salmonella_sampling'])
      expect(rules[rule]!.status, `${rule}: ${JSON.stringify(rules[rule])}`).toBe('pass');
    expect(rules.lighting!.findings).toEqual([]);
    expect(rules.lighting!.summary).toContain(`${LAYING.length} day(s) with a photoperiod recorded`);
    expect(rules.withdrawal_sales!.summary).toBe(`${SALES.length} sale(s), none during a withdrawal period`);
    expect(rules.stocking_density!.summary).toContain(`peak ${round(PULLETS / LAYING_HOUSE_M2, 2)} birds/m2`);
    // every egg laid has left: sold, or destroyed
    const stock = await get(`/api/v1/inventory/stock?farmId=${farmId}`, 'GET stock');
    expect(stock.eggs).toMatchObject({ count: 0 });
    expect(sum(SALES.map((s) => s.quantity)) + sum(HELD.map((s) => s.quantity))).toBe(EGGS);
  });

  it('normal data raise nothing over the whole lay: no anomaly from a rule or a detector, none on the dashboard', async () => {
    expect(rulesJob, JSON.stringify(rulesJob)).toMatchObject({ status: 'done', result: { rules: { errors: [] }, detectors: { errors: [] } } });
    await expectNoAnomalies(http, token, farmId);
    for (const c of [rear, lay]) {
      const v2 = await get(`/api/v2/analytics/anomalies/${c.flockId}/${c.cycleId}`, 'GET v2 anomalies');
      expect(v2.detections.map((d: Json) => `${d.bucket} ${d.metric} ${d.detector} ${d.direction}`)).toEqual([]);
    }
    const manager = await get('/api/v1/dashboard', 'GET manager dashboard');
    expect(manager.openAnomalies.count).toBe(0);
    expect((manager.flocks as Json[]).map((f) => `${f.kind} ${f.flockId}`)).toEqual([`layer ${lay.flockId}`]);
  });

  it('depletion: the spent hens are sold and the cycle closed; the financials equal a hand computation; the dashboard no longer shows the flock', async () => {
    await post(
      `${lay.base}/movements`,
      { type: 'bird_sale', date: dateAt(AGE_TODAY), quantity: HENS, totalWeightKg: round(HENS * SPENT_HEN_KG, 1), unitPrice: SPENT_HEN_PRICE },
      'POST spent hens sale',
    );
    const closed = await http('POST', `${lay.base}/close`, { token, body: { endDate: dateAt(AGE_TODAY) } });
    expectStatus(closed, 200, 'close the laying cycle');
    expect(closed.body.data).toMatchObject({ status: 'closed', birds: { alive: 0, sold: HENS } });

    const f = await financials(lay);
    const layerFeedKg = sum(LAYING.map((d) => d.feedKg));
    const averagePrice = sum(DELIVERIES.map((x) => x.quantityKg * x.unitPrice)) / sum(DELIVERIES.map((x) => x.quantityKg));
    const pullets = PULLETS * rearingFinancials.costPerBirdAlive.value;
    expect(f.costs.feed.amount, JSON.stringify(f.costs.feed)).toBeCloseTo(layerFeedKg * averagePrice, 1);
    const eggRevenue = sum(SALES.map((s) => s.quantity * s.unitPrice));
    expect(f.revenue.eggs.amount, JSON.stringify(f.revenue)).toBeCloseTo(eggRevenue, 2);
    expect(f.revenue.birds.amount, JSON.stringify(f.revenue)).toBeCloseTo(HENS * SPENT_HEN_PRICE, 2);
    const cost = f.costs.total;
    expect(cost).toBeCloseTo(
      pullets + f.costs.feed.amount + f.costs.water.amount + f.costs.medication.amount + f.costs.vaccination.amount + f.costs.other.amount,
      1,
    );
    const margin = eggRevenue + HENS * SPENT_HEN_PRICE - cost;
    expect(f.margin.value, JSON.stringify(f.margin)).toBeCloseTo(margin, 1);
    const graded = LAYING.filter((d) => d.eggGrams !== undefined);
    const weighedGrams = sum(graded.map((d) => d.eggs * d.eggGrams!));
    const massKg = (weighedGrams + (EGGS - sum(graded.map((d) => d.eggs))) * (weighedGrams / sum(graded.map((d) => d.eggs)))) / 1000;
    expect(f.layer).toMatchObject({ hensHoused: PULLETS });
    expect(f.layer.marginPerHenHoused.value).toBeCloseTo(margin / PULLETS, 2);
    expect(f.layer.feedPerHenHousedKg.value).toBeCloseTo(layerFeedKg / PULLETS, 2);
    expect(f.layer.eggMassKg.value).toBeCloseTo(massKg, 1);
    expect(f.layer.costPerDozenEggs.value).toBeCloseTo((cost * 12) / EGGS, 3);
    expect(f.layer.costPerKgEggs.value).toBeCloseTo(cost / massKg, 3);

    const after = await get('/api/v1/dashboard', 'GET manager dashboard');
    const ids = [...(after.flocks as Json[]), ...(after.emptiedFlocks as Json[])].map((x) => x.flockId ?? x.id);
    expect(ids).not.toContain(lay.flockId);
    expect(ids).not.toContain(rear.flockId);
  });
});
