import { findBroilerStandard } from '../analytics/broiler-standards.js';
import { standardWeightGrams } from '../analytics/standard-lookup.js';
import { addDays, daysBetween } from '../../platform/calendar.js';
import type { FlockForecast } from '../predictive/records.js';
import { DEFAULT_DENSITY_TIER, DENSITY_LOOKAHEAD_DAYS, firstDayOver, forecastWeightOn, type DayWeight, type HeadcountRules } from './density.js';
import { broilerRule, densityAreaOf, densityRuleFor, type HouseAreas } from './density-rules.js';
import type { DensityWarning } from '../../../schemas/warnings.js';
import { ageOrigin } from '../age.js';
import { layingMaturityOn } from '../laying-maturity.js';

/**
 * Stocking density ahead of a placement (docs/domain.md, "Compliance"): a bird_inflow, a bird transfer
 * into a cycle or a completed transfer of birds that would put the receiving flock's house above the
 * limit answers normally, with a `warnings` entry naming the density, the limit and the date. Never a
 * refusal: the birds are there (the report's stocking_density rule then shows the days actually over).
 */

/** The target weight a broiler cycle without a harvest date or target age is looked ahead to (the forecasts' default target). */
export const DEFAULT_TARGET_GRAMS = 2500;

/** The first age (days) at which the breed standard reaches `grams`, if it does. */
function ageReaching(standard: NonNullable<ReturnType<typeof findBroilerStandard>>, grams: number): number | null {
  for (let age = 0; age <= DENSITY_LOOKAHEAD_DAYS; age++) if ((standardWeightGrams(standard, age)?.grams ?? 0) >= grams) return age;
  return null;
}

/** What the density ahead of a placement is judged on: the receiving cycle, its flock, forecast, house and farm as read. */
export interface Placement {
  cycle: {
    id: string;
    flockId: string;
    alive: number;
    birdType: string;
    hatchDate: string | null;
    placedOn?: string | null;
    startDate: string;
    targetWeightGrams: number | null;
    targetAgeDays: number | null;
    /** Eggs collected so far: a cycle that lays has reached laying maturity. */
    eggsCollected?: number;
  };
  flock: { breed: string | null; houseId: string | null } | undefined;
  forecast: FlockForecast | undefined;
  house: ({ id: string; name: string; houseType?: string | null } & HouseAreas) | undefined;
  farm: { densityTier: number } | undefined;
}

/**
 * How layers and breeders entering on `date` are judged: by the rule of their stage on each date (pullets,
 * then laying hens of the house's system from laying maturity: ../laying-maturity.ts) and the area that rule
 * measures on; up to the day they reach laying maturity, unless the cycle's target age (its planned
 * depletion: a rearing cycle's transfer age) ends it before. A cycle that lays already is judged as hens.
 */
function headcountOf(p: Placement, hatch: string, date: string, tier: number): { rules: HeadcountRules; until: string } {
  const { cycle, house } = p;
  const layingFrom = (cycle.eggsCollected ?? 0) > 0 ? date : layingMaturityOn({ birdType: cycle.birdType, ageOrigin: hatch, firstEggOn: null });
  const ruleAt = (d: string) =>
    densityRuleFor({ birdType: cycle.birdType, houseType: house?.houseType ?? null, tier, layingHens: layingFrom !== null && d >= layingFrom });
  const leaves = cycle.targetAgeDays ? addDays(hatch, cycle.targetAgeDays) : null;
  const until = layingFrom && !(leaves && leaves <= layingFrom) ? layingFrom : date;
  return { rules: { ruleAt, areaOf: (rule) => (house ? densityAreaOf(rule, house).areaM2 : 0), layingFrom }, until };
}

/**
 * The warnings of `birdsAdded` birds entering the placement's cycle on `date`: none when the flock has no
 * house with a usable area, or (broilers) no weight to look ahead with (no forecast of this cycle and no
 * breed standard). `inflow`: they are a bird_inflow, so the birds' age counts from `date` when no earlier
 * placement is recorded and the hatch date is unknown (../age.ts), as it will once they are in.
 */
export function densityWarningsOf({ cycle, flock, forecast, house, farm }: Placement, birdsAdded: number, date: string, inflow = false): DensityWarning[] {
  if (!flock?.houseId) return [];
  const areaM2 = house?.usableAreaM2 ?? 0;
  if (!house || !(areaM2 > 0)) return [];
  const birds = Math.max(0, cycle.alive) + birdsAdded;
  const broiler = cycle.birdType === 'broiler';
  const tier = farm?.densityTier ?? DEFAULT_DENSITY_TIER;
  const placedOn = inflow && !(cycle.placedOn && cycle.placedOn <= date) ? date : cycle.placedOn;
  const hatch = ageOrigin({ ...cycle, placedOn }).date;
  const standard = broiler ? findBroilerStandard(flock.breed) : null;
  const ownForecast = forecast?.cycleId === cycle.id ? forecast : undefined;
  const points = [...(ownForecast?.weight.points ?? []), ...(ownForecast?.harvest.weight ? [ownForecast.harvest.weight] : [])];
  const weightAt = (d: string): DayWeight | null => {
    const forecastGrams = forecastWeightOn(points, d, daysBetween);
    if (forecastGrams !== null) return { grams: forecastGrams, source: 'forecast' };
    const std = standard ? standardWeightGrams(standard, daysBetween(hatch, d)) : null;
    return std ? { grams: Math.round(std.grams), source: 'breed_standard' } : null;
  };
  // broilers are looked ahead to the expected harvest: the forecast's, else the target age, else the day the standard reaches the target weight
  const reach = standard ? ageReaching(standard, cycle.targetWeightGrams ?? DEFAULT_TARGET_GRAMS) : null;
  const heads = broiler ? undefined : headcountOf({ cycle, flock, forecast, house, farm }, hatch, date, tier);
  const until = broiler
    ? (ownForecast?.harvest.date ?? (cycle.targetAgeDays ? addDays(hatch, cycle.targetAgeDays) : reach !== null ? addDays(hatch, reach) : null))
    : heads!.until;
  if (!until) return [];
  const over = firstDayOver(
    { birds, areaM2, birdType: cycle.birdType, tier, from: date, until: until < date ? date : until, weightAt, headcount: heads?.rules },
    addDays,
  );
  if (!over || over.limit === null) return [];
  const rule = broiler ? broilerRule(tier) : heads!.rules.ruleAt(over.date);
  const area = broiler ? areaM2 : heads!.rules.areaOf(rule);
  const weight = over.weightGrams === null ? '' : ` at the ${over.weightSource === 'forecast' ? 'forecast' : 'breed-standard'} weight of ${over.weightGrams} g`;
  const matures = !broiler && over.date !== date ? ' (the day they reach laying maturity)' : '';
  const limitWords = broiler
    ? `the farm’s stocking density tier of ${over.limit} kg/m²`
    : `${rule.binding ? 'the limit' : 'the reference'} of ${over.limit} hens/m² of ${rule.area === 'cage' ? 'cage' : 'usable'} area for ${rule.label}`;
  return [
    {
      code: 'stocking_density',
      message:
        `${birds} bird(s) in house ${house.name} (${area} m²) would stand at ${over.value} ${over.unit} on ${over.date}${matures}${weight}: ` +
        `above ${limitWords} (${rule.source})`,
      flockId: cycle.flockId,
      cycleId: cycle.id,
      houseId: house.id,
      date: over.date,
      birds,
      areaM2: area,
      value: over.value,
      limit: over.limit,
      unit: over.unit,
      weightGrams: over.weightGrams,
      weightSource: over.weightSource === 'forecast' || over.weightSource === 'breed_standard' ? over.weightSource : null,
      source: rule.source,
    },
  ];
}
