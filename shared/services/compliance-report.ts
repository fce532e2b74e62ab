import { listSamples, withdrawalWindows } from '../db/compliance.js';
import { listDailyRecords } from '../db/daily-records.js';
import { farmNotFound, getFarm, getHouse } from '../db/farms.js';
import { listMovements, type MovementRecord } from '../db/movements.js';
import { listWeights } from '../db/weights.js';
import { getCycle, type CycleRecord } from '../db/cycles.js';
import { activeFlocksOfFarm } from '../db/inventory.js';
import type { FlockRecord } from '../db/flocks.js';
import { findBreedStandard, standardWeightGrams } from '../domain/analytics/breed-standards.js';
import type { Caller } from '../domain/caller.js';
import { canAccessFarm } from '../domain/farm-access.js';
import { addDays, daysBetween } from '../domain/compliance/dates.js';
import { birdsPerDay, DEFAULT_DENSITY_TIER, densityOf, weightOn, type DensityDay } from '../domain/compliance/density.js';
import {
  medicineRecordsRule,
  overallStatus,
  recordCompletenessRule,
  REPORT_CSV_COLUMNS,
  reportRows,
  salmonellaRule,
  stockingDensityRule,
  withdrawalSalesRule,
  type RuleResult,
} from '../domain/compliance/report.js';
import { broilerSampling, layerSampling } from '../domain/compliance/sampling.js';
import { isSale } from '../domain/compliance/withdrawals.js';
import { toCsv } from '../presentation/csv.js';
import { scopedCycleHead } from './cycles.js';

/** The compliance report of a cycle and a farm's status (docs/domain.md, "Compliance"). Reads only; writes nothing. */

const WEIGHING_INTERVAL_DAYS = 7;
const todayUtc = () => new Date().toISOString().slice(0, 10);

async function everyPage<T>(page: (cursor?: string) => Promise<{ items: T[]; nextCursor: string | null }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 200; guard++) {
    const p = await page(cursor);
    out.push(...p.items);
    if (!p.nextCursor) break;
    cursor = p.nextCursor;
  }
  return out;
}

const quantityOf = (m: MovementRecord) => Number(m.fields.quantity ?? 0);

/** Every rule of one cycle, from its records. */
export async function cycleRules(
  flock: Pick<FlockRecord, 'id' | 'breed' | 'houseId'> & { hatchDate?: string | null },
  cycle: CycleRecord,
  asOf = todayUtc(),
): Promise<{ from: string; to: string; rules: RuleResult[] }> {
  const to = cycle.endDate && cycle.endDate < asOf ? cycle.endDate : asOf;
  const [movements, windows, samples, daily, weights, farm, house] = await Promise.all([
    everyPage((cursor) => listMovements(cycle.id, { limit: 100, cursor })),
    withdrawalWindows(cycle.farmId, { cycleId: cycle.id }),
    listSamples(cycle.farmId, flock.id),
    everyPage((cursor) => listDailyRecords(cycle.id, { limit: 100, cursor })),
    everyPage((cursor) => listWeights(cycle.id, { limit: 100, cursor })),
    getFarm(cycle.farmId),
    flock.houseId ? getHouse(cycle.farmId, flock.houseId) : Promise.resolve(undefined),
  ]);
  const from = cycle.startDate;
  const hatch = cycle.hatchDate ?? flock.hatchDate ?? cycle.startDate;
  const sales = movements
    .filter((m) => isSale(m.type))
    .map((m) => ({
      id: m.id,
      type: m.type,
      date: m.date,
      quantity: quantityOf(m),
      override: (m.fields.override as { reason: string } | undefined) ?? null,
      createdBy: m.createdBy,
    }));
  // density: birds present per day, weight measured (else the breed standard at age), over the house's usable area
  const standard = findBreedStandard(flock.breed, cycle.birdType);
  const standardGrams = (date: string) => (standard ? (standardWeightGrams(standard, daysBetween(hatch, date))?.grams ?? null) : null);
  const weighings = weights.map((w) => ({ date: w.date, grams: w.grams }));
  const tier = farm?.densityTier ?? DEFAULT_DENSITY_TIER;
  const days =
    from <= to
      ? birdsPerDay(
          movements.map((m) => ({ type: m.type, date: m.date, quantity: quantityOf(m) })),
          from,
          to,
          addDays,
        )
      : [];
  const density = days
    .filter((d) => d.birds > 0)
    .map((d) => densityOf(d, house?.usableAreaM2 ?? 0, cycle.birdType, tier, weightOn(d.date, weighings, standardGrams, daysBetween)))
    .filter((d): d is DensityDay => d !== null);
  // Salmonella: layers from their age, broilers before they leave (first sale, else the target age)
  const sampleDates = samples.filter((s) => !s.cycleId || s.cycleId === cycle.id).map((s) => s.date);
  const firstSale = sales
    .filter((s) => s.type === 'bird_sale')
    .map((s) => s.date)
    .sort()[0];
  const expectedHarvest = firstSale ?? (cycle.targetAgeDays ? addDays(hatch, cycle.targetAgeDays) : null);
  const broiler = cycle.birdType === 'broiler';
  const occurrences = broiler ? broilerSampling(expectedHarvest, sampleDates, asOf) : layerSampling(hatch, sampleDates, asOf, cycle.endDate);
  const rules = [
    withdrawalSalesRule(windows, sales),
    medicineRecordsRule(movements.filter((m) => m.type === 'medication')),
    stockingDensityRule({ houseId: flock.houseId, areaM2: house?.usableAreaM2 ?? null, birdType: cycle.birdType, days: density }),
    salmonellaRule(cycle.birdType, occurrences, broiler ? 'No sale and no target age: the sampling before slaughter cannot be dated' : null),
    recordCompletenessRule({
      days: days.map((d) => d.date),
      dailyRecordDates: new Set(daily.map((d) => d.date)),
      mortalityWithoutCause: movements
        .filter((m) => m.type === 'bird_mortality' && (!m.fields.cause || m.fields.cause === 'unknown'))
        .map((m) => ({ id: m.id, date: m.date, quantity: quantityOf(m) })),
      weighingDates: broiler ? weighings.map((w) => w.date) : days.map((d) => d.date),
      weighingIntervalDays: WEIGHING_INTERVAL_DAYS,
      daysBetween,
    }),
  ];
  return { from, to, rules };
}

export async function complianceReportFor(user: Caller, flockId: string, cycleId: string) {
  const { flock, cycle } = await scopedCycleHead(user, flockId, cycleId);
  const asOf = todayUtc();
  const { from, to, rules } = await cycleRules(flock, cycle, asOf);
  return { farmId: cycle.farmId, flockId, cycleId, birdType: cycle.birdType, from, to, asOf, status: overallStatus(rules), rules };
}

/** The report as RFC 4180 CSV: one line per finding, one per rule without findings, every rule with its source. */
export async function complianceReportCsv(user: Caller, flockId: string, cycleId: string) {
  const report = await complianceReportFor(user, flockId, cycleId);
  return { filename: `compliance-${flockId}-${cycleId}-${report.asOf}.csv`, csv: toCsv(REPORT_CSV_COLUMNS, reportRows(report.rules)) };
}

/** A farm's compliance over its active cycles: each cycle's rule statuses, and the counts. */
export async function farmComplianceStatusFor(user: Caller, farmId: string) {
  if (!canAccessFarm(user, farmId)) throw farmNotFound(farmId);
  if (!(await getFarm(farmId))) throw farmNotFound(farmId);
  const asOf = todayUtc();
  const flocks = (await activeFlocksOfFarm(farmId)).filter((f) => f.activeCycleId);
  const cycles = [];
  for (const flock of flocks) {
    const cycle = await getCycle(flock.id, flock.activeCycleId!);
    if (cycle?.status !== 'active') continue;
    const { rules } = await cycleRules(flock, cycle, asOf);
    cycles.push({
      flockId: flock.id,
      cycleId: cycle.id,
      status: overallStatus(rules),
      rules: rules.map((r) => ({ rule: r.rule, status: r.status, summary: r.summary })),
    });
  }
  const all = cycles.flatMap((c) => c.rules);
  const count = (s: string) => all.filter((r) => r.status === s).length;
  return { farmId, asOf, status: overallStatus(all), counts: { pass: count('pass'), warn: count('warn'), fail: count('fail') }, cycles };
}
