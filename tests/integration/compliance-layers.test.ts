/**
 * A Hy-Line Brown flock through the compliance report, over the real middleware and DynamoDB Local:
 * 30,800 day-old chicks reared in a floor house of 1,900 m² (16.21 birds/m²), 30,064 pullets moved at day
 * 119 to an enriched-cage house of 2,305 m² (13.04 hens/m²). The rearing report judges no density of
 * pullets and wants the day-old and pre-move Salmonella samples; the laying report judges the hens from
 * laying maturity by the enriched-cage rule (750 cm² per hen), a barn's 9 hens/m² once the house is a
 * floor house; an official sample does not restart the operator's 15-week clock; the house records its
 * cage area.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { userWith } from '../support/accounts.js';
import { otherFarm } from '../support/farms.js';
import { day, flockWithCycle } from '../support/cycles.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const HATCH = -130;
const ruleOf = (report: Json, rule: string): Json => (report.rules as Json[]).find((r) => r.rule === rule)!;

async function layerFarm() {
  const farmId = await otherFarm('Layer farm');
  const manager = await userWith({ role: 'manager', farmIds: [farmId] });
  const house = async (body: Json) => {
    const res = await call('POST', `/api/v1/config/farms/${farmId}/houses`, { token: manager.token, body: { capacity: 40_000, ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as Json;
  };
  const report = async (f: { flock: Json; cycle: Json }) => {
    const res = await call('GET', `/api/v1/compliance/cycles/${f.flock.id}/${f.cycle.id}/report`, { token: manager.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Json;
  };
  const sample = async (flockId: string, offset: number, kind = 'boot_swabs') => {
    const res = await call('POST', '/api/v1/compliance/samples', { token: manager.token, body: { flockId, date: day(offset), kind } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };
  /** 30,800 day-old chicks hatched and placed 130 days ago in a rearing house; 736 died. */
  const rearing = async (houseId: string) => {
    const f = await flockWithCycle({
      token: manager.token,
      farmId,
      birdType: 'layer',
      breed: 'Hy-Line Brown',
      houseId,
      startDate: day(HATCH),
      hatchDate: day(HATCH),
    });
    await f.move({ type: 'bird_inflow', date: day(HATCH), quantity: 30_800 });
    await f.move({ type: 'bird_mortality', date: day(HATCH + 30), quantity: 736 });
    return f;
  };
  return { farmId, token: manager.token, house, report, sample, rearing };
}

describe('a layer flock reared, moved and laying', { timeout: 240_000 }, () => {
  it('the rearing report: pullets at 16.21 birds/m² are not judged; day-old and pre-move samples pass, the cage house judges hens by 750 cm² each', async () => {
    const farm = await layerFarm();
    const rearingHouse = await farm.house({ name: 'Rearing', usableAreaM2: 1900, type: 'floor' });
    const cageHouse = await farm.house({ name: 'Laying', usableAreaM2: 2305, type: 'cage' });
    expect(cageHouse).not.toHaveProperty('cageAreaM2');
    const pullets = await farm.rearing(rearingHouse.id);
    const hens = await flockWithCycle({
      token: farm.token,
      farmId: farm.farmId,
      birdType: 'layer',
      breed: 'Hy-Line Brown',
      houseId: cageHouse.id,
      startDate: day(HATCH + 119),
      hatchDate: day(HATCH),
    });
    await farm.sample(pullets.flock.id, HATCH, 'other'); // chick box liners on arrival
    await farm.sample(pullets.flock.id, HATCH + 110); // 16 weeks, before the move at 17
    await pullets.move({ type: 'bird_transfer_out', date: day(HATCH + 119), quantity: 30_064, counterpartFlockId: hens.flock.id });

    const reared = await farm.report(pullets);
    const density = ruleOf(reared, 'stocking_density');
    expect(density.status, JSON.stringify(density)).toBe('pass');
    expect(density.summary).toContain('pullets before laying maturity');
    expect(density.summary).toContain('no EU stocking limit applies');
    expect(density.summary).toContain('peak 16.21 birds/m2');
    const salmonella = ruleOf(reared, 'salmonella_sampling');
    expect(salmonella.status, JSON.stringify(salmonella)).toBe('pass');
    expect(salmonella.summary).toBe(`2 sampling(s) on time (day-old on ${day(HATCH)}, pre-move on ${day(HATCH + 110)})`);

    // the laying house: pullets for a week, hens from day 126, 30,064 on 2,305 m² = 13.04 hens/m² under 13.33
    const laying = ruleOf(await farm.report(hens), 'stocking_density');
    expect(laying.status, JSON.stringify(laying)).toBe('pass');
    expect(laying.summary).toContain('laying hens, enriched cages: peak 13.04 birds/m2');
    expect(laying.source).toContain('Art. 6(1)(a)');

    // the same house as a barn: 13.04 > 9 hens/m² from laying maturity on
    const patched = await call('PATCH', `/api/v1/config/farms/${farm.farmId}/houses/${cageHouse.id}`, { token: farm.token, body: { type: 'floor' } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const barn = ruleOf(await farm.report(hens), 'stocking_density');
    expect(barn.status).toBe('fail');
    expect(barn.findings[0]).toMatchObject({ date: day(HATCH + 126), evidence: expect.objectContaining({ value: 13.04, limit: 9, rule: 'alternative' }) });

    // back to cages, with the cages' own area recorded: the density is measured on it
    const cages = await call('PATCH', `/api/v1/config/farms/${farm.farmId}/houses/${cageHouse.id}`, {
      token: farm.token,
      body: { type: 'cage', cageAreaM2: 2600 },
    });
    expect(cages.status, JSON.stringify(cages.body)).toBe(200);
    expect(cages.body.data).toMatchObject({ type: 'cage', cageAreaM2: 2600 });
    const measured = ruleOf(await farm.report(hens), 'stocking_density');
    expect(measured.summary).toContain('peak 11.56 birds/m2');
    const cleared = await call('PATCH', `/api/v1/config/farms/${farm.farmId}/houses/${cageHouse.id}`, { token: farm.token, body: { cageAreaM2: null } });
    expect(cleared.body.data).not.toHaveProperty('cageAreaM2');
  });

  it('a barn at 10 hens/m² fails; a rearing flock without its pre-move sample fails, naming it', async () => {
    const farm = await layerFarm();
    const barnHouse = await farm.house({ name: 'Barn', usableAreaM2: 1000, type: 'floor' });
    const barn = await flockWithCycle({
      token: farm.token,
      farmId: farm.farmId,
      birdType: 'layer',
      houseId: barnHouse.id,
      startDate: day(-10),
      hatchDate: day(-200),
    });
    await barn.move({ type: 'bird_inflow', date: day(-10), quantity: 10_000 });
    const density = ruleOf(await farm.report(barn), 'stocking_density');
    expect(density.status).toBe('fail');
    expect(density.findings).toHaveLength(11);

    const rearingHouse = await farm.house({ name: 'Rearing', usableAreaM2: 1900, type: 'floor' });
    const pullets = await farm.rearing(rearingHouse.id);
    await farm.sample(pullets.flock.id, HATCH);
    await pullets.move({ type: 'bird_sale', date: day(HATCH + 119), quantity: 30_064 });
    const salmonella = ruleOf(await farm.report(pullets), 'salmonella_sampling');
    expect(salmonella.status).toBe('fail');
    expect(salmonella.findings).toEqual([
      expect.objectContaining({
        status: 'fail',
        date: day(HATCH + 118),
        message: `No pre-move sample of the pullets (the two weeks before they move to the laying unit or come into lay) between ${day(HATCH + 105)} and ${day(HATCH + 118)}`,
      }),
    ]);
  });

  it('an official sample does not restart the operator’s 15-week clock: without an operator sample 15 weeks after the last, the report fails', async () => {
    const farm = await layerFarm();
    // hens of 40 weeks: the operator sampled at 24 weeks, the authority at 30
    const hens = await flockWithCycle({ token: farm.token, farmId: farm.farmId, birdType: 'layer', startDate: day(-280), hatchDate: day(-280) });
    await farm.sample(hens.flock.id, -280 + 168);
    await farm.sample(hens.flock.id, -280 + 210, 'official');
    const salmonella = ruleOf(await farm.report(hens), 'salmonella_sampling');
    expect(salmonella.status).toBe('fail');
    expect(salmonella.findings).toEqual([
      expect.objectContaining({ status: 'fail', date: day(-280 + 168 + 105), evidence: expect.objectContaining({ kind: 'laying', status: 'missed' }) }),
    ]);
    expect(salmonella.summary).toContain('1 official sample(s) recorded, not counted as the operator’s');
  });
});
