import type { LotDraw } from '../../domain/eggs/lots.js';
import { listSamples, withdrawalWindows } from '../../db/compliance.js';
import { listDailyRecords } from '../../db/daily-records.js';
import { allDevicesOfFarm } from '../../db/devices.js';
import { getFarm, getHouse } from '../../db/farms.js';
import type { FarmRecord, HouseRecord } from '../../domain/farms/records.js';
import { farmNotFound } from '../../domain/references.js';
import { listMovements } from '../../db/movements.js';
import type { MovementRecord } from '../../domain/movements/record.js';
import { allSchedulesOfFarm, outcomesBetween } from '../../db/schedules.js';
import type { ScheduleRecord } from '../../domain/schedules/records.js';
import { rollupsBetween } from '../../db/sensor-readings.js';
import { listWeights } from '../../db/weights.js';
import { getCycle } from '../../db/cycles.js';
import type { CycleRecord } from '../../domain/flocks/records.js';
import { activeFlocksOfFarm } from '../../db/inventory.js';
import type { FlockRecord } from '../../domain/flocks/records.js';
import { findBreedStandard, standardWeightGrams } from '../../domain/analytics/breed-standards.js';
import type { Caller } from '../../domain/caller.js';
import { canAccessFarm } from '../../domain/farm-access.js';
import { hoursOfDays, houseAir, worstHourlyMeans, type HouseAir } from '../../domain/compliance/air.js';
import { cycleProgramme, lightingProgrammeOf, lightingRule, type LitDay } from '../../domain/compliance/lighting.js';
import { birdsPerDay, DEFAULT_DENSITY_TIER, weightOn } from '../../domain/compliance/density.js';
import { cycleDensityDays, stockingDensityRule } from '../../domain/compliance/density-report.js';
import { birdsGoneOn, rearingPlanFromCounters, rearingPlanOf } from '../../domain/compliance/rearing.js';
import {
  airQualityRule,
  medicineRecordsRule,
  overallStatus,
  recordCompletenessRule,
  REPORT_CSV_COLUMNS,
  reportRows,
  vaccinationAdherenceRule,
  withdrawalSalesRule,
  type RuleResult,
} from '../../domain/compliance/report.js';
import { salmonellaRule } from '../../domain/compliance/salmonella-report.js';
import { cycleSampling, openSampling, operatorSampleDates, type OpenSampling, type SamplingKind } from '../../domain/compliance/sampling.js';
import { firstEggOf, layingMaturityOn } from '../../domain/laying-maturity.js';
import type { VaccinationOccurrence } from '../../domain/compliance/vaccination.js';
import { isSale } from '../../domain/compliance/withdrawals.js';
import { occurrencesBetween, withAgeOrigin } from '../../domain/schedules/occurrences.js';
import { programmeOf } from '../../domain/schedules/programmes.js';
import { toCsv } from '../../presentation/csv.js';
import { scopedCycleHead } from '../flocks/cycles.js';
import { addDays, daysBetween, localDateOf } from '../../platform/calendar.js';
import type { ThresholdsConfig } from '../../../schemas/analytics-config.js';
import { currentAnalyticsConfig } from '../analytics/config.js';
import { ageOrigin } from '../../domain/age.js';

/** The compliance report of a cycle and a farm's status (docs/domain.md, "Compliance"). Reads only; writes nothing. */

const WEIGHING_INTERVAL_DAYS = 7;

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

/** The farm's today on its own clock (its IANA time zone): the day the report is as of. */
const farmToday = (farm: Pick<FarmRecord, 'timezone'>, now: Date) => localDateOf(now.getTime(), farm.timezone);

/** The occurrences of the cycle's vaccination schedules from `from` to `to`, each with its stored outcome. */
async function vaccinationOccurrences(schedules: readonly ScheduleRecord[], cycle: CycleRecord, from: string, to: string): Promise<VaccinationOccurrence[]> {
  if (from > to) return [];
  const own = schedules.filter((s) => s.kind === 'vaccination' && s.cycleId === cycle.id).map((s) => withAgeOrigin(s, cycle));
  const perSchedule = await Promise.all(
    own.map(async (s) => {
      const dates = occurrencesBetween(s.timing, from, to, s);
      if (dates.length === 0) return [];
      const outcomes = new Map((await outcomesBetween(s.id, from, to)).map((o) => [o.date, o]));
      return dates.map((date): VaccinationOccurrence => {
        const o = outcomes.get(date);
        return {
          scheduleId: s.id,
          title: s.title,
          vaccine: s.details.vaccine ?? null,
          method: s.details.method ?? null,
          programme: s.programme,
          date,
          outcome: o ? { status: o.status, at: o.at, by: o.by, reason: o.reason, movementId: o.movementId, doneOn: o.doneOn } : null,
        };
      });
    }),
  );
  return perSchedule.flat();
}

/** The programme templates the cycle's vaccination schedules were applied from, with their sources. */
function programmesOf(schedules: readonly ScheduleRecord[], cycleId: string) {
  const ids = [...new Set(schedules.filter((s) => s.kind === 'vaccination' && s.cycleId === cycleId && s.programme).map((s) => s.programme!.id))];
  return ids.flatMap((id) => {
    const p = programmeOf(id);
    return p ? [{ id: p.id, sources: p.sources }] : [];
  });
}

/** A house's hours from `from` to `to` (farm-local days, hours ended by `nowMs`), judged on its devices' hourly NH₃ and CO₂ means. */
async function airOfHouse(farm: FarmRecord, house: HouseRecord, from: string, to: string, nowMs: number): Promise<HouseAir> {
  const hours = from <= to ? hoursOfDays(from, to, nowMs, (ms) => localDateOf(ms, farm.timezone)) : [];
  if (hours.length === 0) return houseAir({ id: house.id, name: house.name }, [], new Map());
  const devices = await allDevicesOfFarm(farm.id, { houseId: house.id });
  const rollups = await Promise.all(devices.map((d) => rollupsBetween(d.id, 'hour', hours[0]!, hours.at(-1)!, { metrics: ['nh3Ppm', 'co2Ppm'] })));
  return houseAir({ id: house.id, name: house.name }, hours, worstHourlyMeans(rollups));
}

/** The configured limits the rules read: darkness, step-up, hens per m² (`thresholds` of the analytics configuration). */
export type ComplianceLimits = Pick<ThresholdsConfig, 'minDarkHours' | 'lightStepUpMaxHoursPerWeek' | 'layerMaxHensPerM2'>;

/**
 * Every rule of one cycle, from its records. `schedules`: the farm's vaccination schedules (read once per
 * farm); `limits`: the configured thresholds (read once per report).
 */
export async function cycleRules(
  flock: Pick<FlockRecord, 'id' | 'breed' | 'houseId'> & { hatchDate?: string | null },
  cycle: CycleRecord,
  farm: FarmRecord,
  schedules: readonly ScheduleRecord[],
  now: Date,
  limits: ComplianceLimits,
): Promise<{ from: string; to: string; asOf: string; rules: RuleResult[] }> {
  const asOf = farmToday(farm, now);
  const to = cycle.endDate && cycle.endDate < asOf ? cycle.endDate : asOf;
  const from = cycle.startDate;
  const house = flock.houseId ? await getHouse(cycle.farmId, flock.houseId) : undefined;
  const [movements, windows, samples, daily, weights, vaccinations, air] = await Promise.all([
    everyPage((cursor) => listMovements(cycle.id, { limit: 100, cursor })),
    withdrawalWindows(cycle.farmId, { cycleId: cycle.id }),
    listSamples(cycle.farmId, flock.id),
    everyPage((cursor) => listDailyRecords(cycle.id, { limit: 100, cursor })),
    everyPage((cursor) => listWeights(cycle.id, { limit: 100, cursor })),
    vaccinationOccurrences(schedules, cycle, from, to),
    house ? airOfHouse(farm, house, from, to, now.getTime()) : Promise.resolve(null),
  ]);
  const ageFrom = ageOrigin({ ...cycle, hatchDate: cycle.hatchDate ?? flock.hatchDate ?? null }).date;
  const sales = movements
    .filter((m) => isSale(m.type))
    .map((m) => ({
      id: m.id,
      type: m.type,
      date: m.date,
      quantity: quantityOf(m),
      override: (m.fields.override as { reason: string } | undefined) ?? null,
      createdBy: m.createdBy,
      ...(Array.isArray(m.fields.fromLots) ? { fromLots: m.fields.fromLots as LotDraw[] } : {}),
    }));
  // density: birds present per day, weight measured (else the breed standard at age), over the house's usable area
  const standard = findBreedStandard(flock.breed, cycle.birdType);
  const standardGrams = (date: string) => (standard ? (standardWeightGrams(standard, daysBetween(ageFrom, date))?.grams ?? null) : null);
  const weighings = weights.map((w) => ({ date: w.date, grams: w.grams }));
  const tier = farm.densityTier ?? DEFAULT_DENSITY_TIER;
  const birdMoves = movements.map((m) => ({ type: m.type, date: m.date, quantity: quantityOf(m) }));
  const days = from <= to ? birdsPerDay(birdMoves, from, to, addDays) : [];
  // layers and breeders are laying hens from laying maturity (the first egg, else the point of lay), pullets before it
  const firstEggOn = firstEggOf(movements);
  const layingFrom = layingMaturityOn({ birdType: cycle.birdType, ageOrigin: ageFrom, firstEggOn });
  const density = house
    ? cycleDensityDays({
        days,
        house,
        birdType: cycle.birdType,
        tier,
        layingFrom,
        weightAt: (date) => weightOn(date, weighings, standardGrams, daysBetween),
        layerMaxHensPerM2: limits.layerMaxHensPerM2,
      })
    : [];
  // Salmonella: a rearing flock's day-old and pre-move samples, laying hens from their age, broilers before they
  // leave (first sale, else the target age); the operator's samples only
  const cycleSamples = samples.filter((s) => !s.cycleId || s.cycleId === cycle.id);
  const sampleDates = operatorSampleDates(cycleSamples);
  const firstSale = firstBirdSaleOf(movements);
  const broiler = cycle.birdType === 'broiler';
  const rearing = rearingPlanOf({
    birdType: cycle.birdType,
    ageOrigin: ageFrom,
    movements: birdMoves,
    days,
    firstEggOn,
    targetAgeDays: cycle.targetAgeDays,
    asOf,
  });
  const sampling = cycleSampling(
    {
      birdType: cycle.birdType,
      hatchDate: ageFrom,
      targetAgeDays: cycle.targetAgeDays,
      endDate: cycle.endDate,
      rearing,
      layingFrom,
      birdsGoneOn: birdsGoneOn(birdMoves),
    },
    sampleDates,
    firstSale,
    asOf,
  );
  const rules = [
    withdrawalSalesRule(windows, sales),
    medicineRecordsRule(movements.filter((m) => m.type === 'medication')),
    stockingDensityRule({ houseId: flock.houseId, areaM2: house?.usableAreaM2 ?? null, birdType: cycle.birdType, days: density, layingFrom }),
    salmonellaRule(cycle.birdType, sampling.occurrences, sampling.why, cycleSamples.length - sampleDates.length),
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
    vaccinationAdherenceRule(
      vaccinations,
      asOf,
      (iso) => localDateOf(iso, farm.timezone),
      programmesOf(schedules, cycle.id),
      schedules.filter((s) => s.kind === 'vaccination' && s.cycleId === cycle.id).length,
    ),
    airQualityRule(
      air ? [air] : [],
      broiler && tier > DEFAULT_DENSITY_TIER,
      flock.houseId ? `House ${flock.houseId} of the flock no longer exists: air quality cannot be checked` : null,
    ),
    lightingRule({
      birdType: cycle.birdType,
      days: daily.flatMap((d) => litDayOf(d.date, d.fields, daysBetween(ageFrom, d.date))),
      programme: cycleProgramme(cycle.lightingProgramme) ?? lightingProgrammeOf(standard?.id),
      layingFrom,
      slaughterOn: firstSale ?? (cycle.targetAgeDays ? addDays(ageFrom, cycle.targetAgeDays) : null),
      daysBetween,
      limits: { minDarkHours: limits.minDarkHours, stepUpMaxHoursPerWeek: limits.lightStepUpMaxHoursPerWeek },
    }),
  ];
  return { from, to, asOf, rules };
}

/** A daily record's photoperiod, when its form gives one. */
function litDayOf(date: string, fields: Record<string, unknown>, ageDays: number): LitDay[] {
  const { lightHours, longestDarkHours } = fields;
  if (typeof lightHours !== 'number') return [];
  return [{ date, ageDays, lightHours, longestDarkHours: typeof longestDarkHours === 'number' ? longestDarkHours : null }];
}

/** The first bird sale's date among the cycle's movements (the broilers' departure for slaughter), if any. */
function firstBirdSaleOf(movements: readonly Pick<MovementRecord, 'type' | 'date'>[]): string | null {
  return (
    movements
      .filter((m) => m.type === 'bird_sale')
      .map((m) => m.date)
      .sort()[0] ?? null
  );
}

export async function complianceReportFor(user: Caller, flockId: string, cycleId: string, now = new Date()) {
  const { flock, cycle } = await scopedCycleHead(user, flockId, cycleId);
  const [farm, schedules, { config }] = await Promise.all([getFarm(cycle.farmId), allSchedulesOfFarm(cycle.farmId, 'vaccination'), currentAnalyticsConfig()]);
  if (!farm) throw farmNotFound(cycle.farmId);
  const { from, to, asOf, rules } = await cycleRules(flock, cycle, farm, schedules, now, config.thresholds);
  return { farmId: cycle.farmId, flockId, cycleId, birdType: cycle.birdType, from, to, asOf, status: overallStatus(rules), rules };
}

/** The report as RFC 4180 CSV: one line per finding, one per rule without findings, every rule with its source. */
export async function complianceReportCsv(user: Caller, flockId: string, cycleId: string) {
  const report = await complianceReportFor(user, flockId, cycleId);
  return { filename: `compliance-${flockId}-${cycleId}-${report.asOf}.csv`, csv: toCsv(REPORT_CSV_COLUMNS, reportRows(report.rules)) };
}

/** A farm's compliance over its active cycles: each cycle's rule statuses, and the counts. */
export async function farmComplianceStatusFor(user: Caller, farmId: string, now = new Date()) {
  if (!canAccessFarm(user, farmId)) throw farmNotFound(farmId);
  const farm = await getFarm(farmId);
  if (!farm) throw farmNotFound(farmId);
  const asOf = farmToday(farm, now);
  const [flocks, schedules, { config }] = await Promise.all([activeFlocksOfFarm(farmId), allSchedulesOfFarm(farmId, 'vaccination'), currentAnalyticsConfig()]);
  const cycles = [];
  for (const flock of flocks.filter((f) => f.activeCycleId)) {
    const cycle = await getCycle(flock.id, flock.activeCycleId!);
    if (cycle?.status !== 'active') continue;
    const { rules } = await cycleRules(flock, cycle, farm, schedules, now, config.thresholds);
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

// ---------------------------------------------------------------------------------------------------
// The dashboards: Salmonella samples due or overdue

/** One active cycle's Salmonella sampling that is due or overdue on `today` (the manager's and the veterinarian's dashboards). */
export type SalmonellaDue = OpenSampling & { flockId: string; flockName: string; cycleId: string; birdType: CycleRecord['birdType']; kind: SamplingKind };

/** The first bird sale of a cycle (its bird_sale movements, oldest first; read only when the cycle counts a sale). */
async function firstBirdSale(cycle: CycleRecord): Promise<string | null> {
  if (!(cycle.sold > 0)) return null;
  let cursor: string | undefined;
  for (let guard = 0; guard < 200; guard++) {
    const page = await listMovements(cycle.id, { limit: 100, cursor, type: 'bird_sale' });
    if (page.items.length) return firstBirdSaleOf(page.items);
    if (!page.nextCursor) return null;
    cursor = page.nextCursor;
  }
  return null;
}

/**
 * The Salmonella samplings due or overdue in the farm's active cycles on `today`: the same due dates as
 * the report's salmonella_sampling rule (one Query of the farm's samples; per broiler cycle with a sale,
 * the date of its first one; a rearing flock's samples from the cycle record's counters). A cycle whose
 * birds have all left has nothing left to sample.
 */
export async function salmonellaDueOf(
  farmId: string,
  cycles: ReadonlyArray<{ flock: { id: string; name: string }; cycle: CycleRecord | null }>,
  today: string,
): Promise<SalmonellaDue[]> {
  const active = cycles.filter((c): c is { flock: { id: string; name: string }; cycle: CycleRecord } => c.cycle?.status === 'active');
  if (active.length === 0) return [];
  const samples = await listSamples(farmId);
  const out = await Promise.all(
    active.map(async ({ flock, cycle }) => {
      if (cycle.placed + cycle.transferredIn > 0 && cycle.alive <= 0) return [];
      const dates = operatorSampleDates(samples.filter((s) => s.flockId === flock.id && (!s.cycleId || s.cycleId === cycle.id)));
      const firstSale = cycle.birdType === 'broiler' ? await firstBirdSale(cycle) : null;
      const hatchDate = ageOrigin(cycle).date;
      const rearing = rearingPlanFromCounters(cycle, hatchDate, today);
      const { occurrences } = cycleSampling(
        { birdType: cycle.birdType, hatchDate, targetAgeDays: cycle.targetAgeDays, endDate: cycle.endDate, rearing },
        dates,
        firstSale,
        today,
      );
      return occurrences.flatMap((occurrence) =>
        openSampling([occurrence], dates, today).map(
          (o): SalmonellaDue => ({ flockId: flock.id, flockName: flock.name, cycleId: cycle.id, birdType: cycle.birdType, kind: occurrence.kind, ...o }),
        ),
      );
    }),
  );
  // overdue first (longest overdue first), then due (fewest days left first)
  return out.flat().sort((a, b) => (a.status !== b.status ? (a.status === 'overdue' ? -1 : 1) : b.daysOverdue - a.daysOverdue || a.daysLeft - b.daysLeft));
}
