/**
 * The cost per bird a transfer carries from a rearing cycle to a laying cycle, and the per-hen and per-egg
 * figures of the financials, without a database. Every expected number is worked out in the comment next to it.
 */
import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { cycleFinancials } from '../../shared/domain/analytics/financials/cycle.js';
import { eggMass } from '../../shared/domain/analytics/financials/layer.js';
import { emptyDay, type CycleFacts, type CycleInputs, type DayTotals } from '../../shared/domain/analytics/inputs.js';
import { effectsOf } from '../../shared/domain/ledger.js';
import { decideTransferCompletion } from '../../shared/domain/transfers/completion.js';
import type { TransferRecord } from '../../shared/domain/transfers/records.js';
import { decideTransferRequest, judgeTransferRequest } from '../../shared/domain/transfers/requests.js';
import { ValidationFailed } from '../../shared/errors.js';
import { cycleFactsOf } from '../support/cycle-facts.js';

const day = (date: string, fields: Partial<Omit<DayTotals, 'date'>> = {}): DayTotals => ({ ...emptyDay(date), ...fields });
const inputs = (days: DayTotals[], birdType: CycleFacts['birdType'] = 'layer'): CycleInputs => ({
  cycle: cycleFactsOf(days[0]!.date, { cycleId: 'C1', flockId: 'F1', birdType }),
  days,
  weighings: [],
  asOf: '2026-09-30',
});
const config = () => structuredClone(ANALYTICS_DEFAULTS);
const dayCounters = (deltas: ReturnType<typeof effectsOf>) =>
  Object.fromEntries(deltas.filter((d) => d.target.kind === 'day').map((d) => [d.attribute, d.amount]));

describe('the ledger counts the cost a transfer carries', () => {
  it('in: the birds and Σ quantity × unitCost as the pullet cost; out: as the cost passed on; reversed with the movement', () => {
    const into = { type: 'bird_transfer_in', date: '2026-05-01', quantity: 950, counterpartFlockId: 'F0', unitCost: 3.2 } as const;
    // 950 × 3.20 = 3,040
    expect(dayCounters(effectsOf(into))).toEqual({ transferredIn: 950, birdsTransferredInPriced: 950, transferInCostPriced: 3040 });
    expect(dayCounters(effectsOf({ ...into, type: 'bird_transfer_out' }, -1))).toEqual({
      transferredOut: -950,
      birdsTransferredOutPriced: -950,
      transferOutCostPriced: -3040,
    });
    const { unitCost: _, ...unpriced } = into;
    expect(dayCounters(effectsOf(unpriced))).toEqual({ transferredIn: 950 });
  });
});

describe('financials of a transfer at cost', () => {
  it('the laying cycle counts its pullets at their unitCost; no "carry no chick cost" assumption when all carry one', () => {
    const f = cycleFinancials(inputs([day('2026-05-01', { transferredIn: 950, birdsTransferredInPriced: 950, transferInCostPriced: 3040 })]), config(), {
      kg: null,
    });
    expect(f.costs.pullets).toMatchObject({ amount: 3040, quantity: 950, pricedFromMovements: 950, averageUnitPrice: 3.2, assumptions: [] });
    expect(f.costs.chicks).toMatchObject({ amount: 0, assumptions: [] });
    expect(f.costs.total).toBe(3040);
    expect(f.costPerBirdPlaced.value).toBe(3.2); // 3,040 ÷ 950 housed
  });

  it('part of the birds priced: the others still carry no chick cost, named', () => {
    const days = [day('2026-05-01', { transferredIn: 1000, birdsTransferredInPriced: 600, transferInCostPriced: 1800 })];
    const f = cycleFinancials(inputs(days), config(), { kg: null });
    expect(f.costs.pullets.amount).toBe(1800);
    expect(f.costs.chicks.assumptions).toEqual(['400 birds transferred in carry no chick cost (paid for by the cycle they came from)']);
  });

  it('the rearing cycle: cost per bird alive, then the transfer out at cost leaves the cost of the birds it keeps', () => {
    // chicks 1,000 × 0.55 (pricing.chickPerBird) = 550; feed 2,000 kg × 0.45 (pricing.feedPerKg) = 900; gross 1,450
    const reared = [day('2026-01-01', { placed: 1000 }), day('2026-02-01', { deaths: 20, feedConsumedKg: 2000 })];
    const before = cycleFinancials(inputs(reared), config(), { kg: null });
    // 1,450 ÷ 980 alive = 1.479591… → 1.4796
    expect(before.costPerBirdAlive).toEqual({ value: 1.4796, unit: 'USD/bird', basis: 'total cost 1,450 USD ÷ 980 birds alive' });
    // 900 moved at 1.48 = 1,332 passes on; 1,450 − 1,332 = 118 stays with the 80 kept (1.475 each)
    const moved = [...reared, day('2026-04-20', { transferredOut: 900, birdsTransferredOutPriced: 900, transferOutCostPriced: 1332 })];
    const after = cycleFinancials(inputs(moved), config(), { kg: null });
    expect(after.costs.gross).toBe(1450);
    expect(after.costs.transferredOut).toMatchObject({ amount: 1332, quantity: 900, averageUnitPrice: 1.48 });
    expect(after.costs.total).toBe(118);
    expect(after.costPerBirdAlive.value).toBe(1.475);
    // a transfer out without a unitCost leaves the cost where it was, and says so
    const unpriced = cycleFinancials(inputs([...reared, day('2026-04-20', { transferredOut: 900 })]), config(), { kg: null });
    expect(unpriced.costs.total).toBe(1450);
    expect(unpriced.costs.transferredOut.assumptions).toEqual(['900 birds transferred out without a unitCost: their cost stays in this cycle']);
  });
});

describe('per hen housed and per egg', () => {
  const laying = [
    day('2026-05-01', { transferredIn: 1000, birdsTransferredInPriced: 1000, transferInCostPriced: 3000 }),
    // 800 eggs weighed, 48,000 g; 200 eggs without a weight
    day('2026-06-01', { eggsCollected: 1000, eggsWeighed: 800, eggWeightGramsSum: 48_000, feedConsumedKg: 1200 }),
    day('2026-06-02', { eggsSold: 1000, eggsSoldPriced: 1000, eggSaleRevenuePriced: 150 }),
  ];

  it('margin and feed per hen housed, egg mass from the recorded egg weight, cost per dozen and per kg of eggs', () => {
    const f = cycleFinancials(inputs(laying), config(), { kg: null });
    // cost: pullets 3,000 + feed 1,200 × 0.45 = 540 → 3,540; margin 150 − 3,540 = −3,390
    expect(f.costs.total).toBe(3540);
    expect(f.layer.hensHoused).toBe(1000);
    expect(f.layer.marginPerHenHoused).toEqual({ value: -3.39, unit: 'USD/hen', basis: 'margin -3,390 USD ÷ 1,000 hens housed (placed + transferred in)' });
    expect(f.layer.feedPerHenHousedKg).toEqual({ value: 1.2, unit: 'kg/hen', basis: 'feed consumed 1,200 kg ÷ 1,000 hens housed (placed + transferred in)' });
    // 48 kg + 200 × 60 g (the weighed eggs' average 48,000 ÷ 800) = 60 kg
    expect(f.layer.eggMassKg).toMatchObject({
      value: 60,
      unit: 'kg',
      assumptions: ['200 eggs collected without an egg weight counted at 60 g (the weighed eggs’ average)'],
    });
    // 3,540 × 12 ÷ 1,000 = 42.48; 3,540 ÷ 60 = 59
    expect(f.layer.costPerDozenEggs).toMatchObject({ value: 42.48, unit: 'USD/dozen' });
    expect(f.layer.costPerKgEggs).toMatchObject({ value: 59, unit: 'USD/kg', basis: 'total cost 3,540 USD ÷ 60 kg of eggs' });
  });

  it('null with the reason: a broiler cycle, no egg weight at all, no eggs', () => {
    const broiler = cycleFinancials(inputs(laying, 'broiler'), config(), { kg: null });
    expect(broiler.layer.costPerDozenEggs).toMatchObject({ value: null, reason: 'layers and breeders only' });
    expect(eggMass([day('2026-06-01', { eggsCollected: 10 })], null)).toMatchObject({
      kg: null,
      reason: 'no egg weight recorded and fallbacks.eggWeightGrams is null',
    });
    // 10 eggs × 62 g (fallbacks.eggWeightGrams) = 0.62 kg
    expect(eggMass([day('2026-06-01', { eggsCollected: 10 })], 62).kg).toBeCloseTo(0.62, 6);
    expect(eggMass([], 62)).toMatchObject({ kg: null, reason: 'no eggs collected' });
  });
});

describe('a transfer between farms carries its unitCost', () => {
  const now = new Date('2026-03-10T09:00:00.000Z');
  const cycle = (id: string, flockId: string, farmId: string) => ({ id, flockId, farmId, status: 'active', startDate: '2026-01-01', endDate: null });

  it('kept on the request (birds only), written on both movements at completion', () => {
    const body = { kind: 'birds' as const, from: { farmId: 'A', flockId: 'FA' }, to: { farmId: 'B', flockId: 'FB' }, quantity: 100, unitCost: 3.1 };
    expect(() => judgeTransferRequest({ ...body, kind: 'feed', feedType: 'layer' })).toThrow(ValidationFailed);
    const sender = { flock: { id: 'FA', farmId: 'A', activeCycleId: 'CA' }, cycle: cycle('CA', 'FA', 'A') };
    const { transfer } = decideTransferRequest({ id: 'u1' }, body, { sender }, now);
    expect(transfer.unitCost).toBe(3.1);
    const approved: TransferRecord = { ...transfer, status: 'approved', to: { ...transfer.to, cycleId: 'CB' } };
    const d = decideTransferCompletion({ id: 'u1' }, approved, {}, now, { from: cycle('CA', 'FA', 'A'), to: cycle('CB', 'FB', 'B') });
    expect(d.ledger!.puts.map((m) => [m.type, m.fields.unitCost])).toEqual([
      ['bird_transfer_out', 3.1],
      ['bird_transfer_in', 3.1],
    ]);
    // 100 × 3.10 = 310 on each side's day rollup
    const dayOf = (g: number) => d.ledger!.groups[g]!.changes.find((c) => c.target.kind === 'day')!.amounts;
    expect(dayOf(0)).toMatchObject({ birdsTransferredOutPriced: 100, transferOutCostPriced: 310 });
    expect(dayOf(1)).toMatchObject({ birdsTransferredInPriced: 100, transferInCostPriced: 310 });
  });
});
