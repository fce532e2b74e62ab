/**
 * Stocking density per house and day (docs/domain.md, "Stocking density"): the birds present and, for
 * broilers, their weight over the area the day's rule measures on. Which rule judges a day (broilers'
 * tier, laying hens by housing system, breeders, pullets before laying maturity): ./density-rules.ts.
 */
import { broilerRule, densityRuleFor, type DensityRule, type DensityRuleId } from './density-rules.js';

export { LAYER_MAX_HENS_PER_M2 } from './density-rules.js';
export const DENSITY_TIERS = [33, 39, 42] as const;
export type DensityTier = (typeof DENSITY_TIERS)[number];
export const DEFAULT_DENSITY_TIER: DensityTier = 33;

export interface BirdDay {
  date: string;
  /** Birds present that day: alive at its start plus the birds placed or moved in that day. */
  birds: number;
}

export interface DayWeight {
  grams: number;
  /** measured, breed_standard and last_measured: the report; forecast and breed_standard: a placement's check ahead. */
  source: 'measured' | 'breed_standard' | 'last_measured' | 'forecast';
}

export interface DensityDay {
  date: string;
  birds: number;
  /** Broilers: live kg per m²; layers and breeders: birds per m². */
  value: number;
  /** The rule's limit (rounded to 0.01); null: no limit applies (pullets). */
  limit: number | null;
  unit: 'kg/m2' | 'birds/m2';
  weightGrams: number | null;
  weightSource: DayWeight['source'] | null;
  over: boolean;
  /** The rule that judged the day, and whether its limit is a legal one (over: fail) or a reference (over: warn). */
  rule: DensityRuleId;
  binding: boolean;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Density of one day on `areaM2` (the area `rule` measures on): broilers by weight, the others by head.
 * `rule` defaults to the broilers' tier, else the rule of laying hens in an alternative system (9/m²), or
 * of breeders in lay; the report and a placement's check name it from the birds' stage and the house.
 */
export function densityOf(
  day: BirdDay,
  areaM2: number,
  birdType: string,
  tier: number,
  weight: DayWeight | null,
  rule: DensityRule = densityRuleFor({ birdType, houseType: null, tier, layingHens: true }),
): DensityDay | null {
  if (!(areaM2 > 0)) return null;
  const judged = { rule: rule.id, binding: rule.binding, unit: rule.unit, limit: rule.limit === null ? null : round2(rule.limit) };
  if (birdType === 'broiler') {
    if (!weight) return null;
    const raw = (day.birds * weight.grams) / 1000 / areaM2;
    return { date: day.date, birds: day.birds, value: round2(raw), ...judged, weightGrams: weight.grams, weightSource: weight.source, over: raw > tier };
  }
  const raw = day.birds / areaM2;
  return {
    date: day.date,
    birds: day.birds,
    value: round2(raw),
    ...judged,
    weightGrams: null,
    weightSource: null,
    over: rule.limit !== null && raw > rule.limit,
  };
}

/** Movements as the bird count reads them: per type and date. */
export interface BirdMovement {
  type: string;
  date: string;
  quantity: number;
}

const IN = new Set(['bird_inflow', 'bird_transfer_in']);
const OUT = new Set(['bird_mortality', 'bird_cull', 'bird_sale', 'bird_transfer_out']);

/** Birds present per day from `from` to `to` (both included), from the cycle's bird movements. */
export function birdsPerDay(movements: readonly BirdMovement[], from: string, to: string, addDays: (d: string, n: number) => string): BirdDay[] {
  const delta = new Map<string, { in: number; out: number }>();
  for (const m of movements) {
    if (!IN.has(m.type) && !OUT.has(m.type)) continue;
    const d = delta.get(m.date) ?? { in: 0, out: 0 };
    if (IN.has(m.type)) d.in += m.quantity;
    else d.out += m.quantity;
    delta.set(m.date, d);
  }
  const out: BirdDay[] = [];
  let alive = 0;
  for (const [date, d] of delta) if (date < from) alive += d.in - d.out;
  for (let date = from, guard = 0; date <= to && guard < 2000; date = addDays(date, 1), guard++) {
    const d = delta.get(date) ?? { in: 0, out: 0 };
    out.push({ date, birds: Math.max(0, alive + d.in) });
    alive += d.in - d.out;
  }
  return out;
}

/**
 * The weight a day's density counts: a weighing within the 3 days before (measured), else the breed
 * standard at the birds' age, else the last weighing.
 */
export function weightOn(
  date: string,
  weighings: ReadonlyArray<{ date: string; grams: number }>,
  standardGrams: (date: string) => number | null,
  daysBetween: (a: string, b: string) => number,
): DayWeight | null {
  const last = weighings
    .filter((w) => w.date <= date)
    .sort((a, b) => (a.date < b.date ? -1 : 1))
    .at(-1);
  if (last && daysBetween(last.date, date) <= 3) return { grams: last.grams, source: 'measured' };
  const standard = standardGrams(date);
  if (standard !== null) return { grams: standard, source: 'breed_standard' };
  return last ? { grams: last.grams, source: 'last_measured' } : null;
}

/** The longest a placement's density is looked ahead, days (a broiler cycle is 5–8 weeks). */
export const DENSITY_LOOKAHEAD_DAYS = 120;

/** How a placement's check judges layers and breeders: the rule of each date, the area it measures on, and the day the birds reach laying maturity. */
export interface HeadcountRules {
  ruleAt: (date: string) => DensityRule;
  areaOf: (rule: DensityRule) => number;
  /** The day the birds reach laying maturity (their rule may change then), if known. */
  layingFrom: string | null;
}

/**
 * A placement's check ahead (docs/domain.md, "Compliance"): the first day from `from` to `until` (both
 * included, at most DENSITY_LOOKAHEAD_DAYS) on which `birds` would stand above the limit in the house:
 * broilers at the day's weight (`weightAt`: the forecast, else the breed standard); layers and breeders by
 * head, on `from` and on the day they reach laying maturity when it falls within (their count does not
 * change, their rule may: `headcount`; without it, the hens' 9/m² on `from`). The birds are those alive
 * once the placement is recorded; later mortality is not assumed (conservative).
 */
export function firstDayOver(
  x: {
    birds: number;
    areaM2: number;
    birdType: string;
    tier: number;
    from: string;
    until: string;
    weightAt: (date: string) => DayWeight | null;
    headcount?: HeadcountRules;
  },
  addDays: (date: string, n: number) => string,
): DensityDay | null {
  if (!(x.areaM2 > 0) || !(x.birds > 0)) return null;
  if (x.birdType !== 'broiler') {
    const h = x.headcount;
    const dates = h?.layingFrom && h.layingFrom > x.from && h.layingFrom <= x.until ? [x.from, h.layingFrom] : [x.from];
    for (const date of dates) {
      const rule = h?.ruleAt(date);
      const d = densityOf({ date, birds: x.birds }, rule && h ? h.areaOf(rule) : x.areaM2, x.birdType, x.tier, null, rule);
      if (d?.over) return d;
    }
    return null;
  }
  const rule = broilerRule(x.tier);
  for (let date = x.from, i = 0; date <= x.until && i <= DENSITY_LOOKAHEAD_DAYS; date = addDays(date, 1), i++) {
    const d = densityOf({ date, birds: x.birds }, x.areaM2, x.birdType, x.tier, x.weightAt(date), rule);
    if (d?.over) return d;
  }
  return null;
}

/** The weight on a date between the forecast's points (linear), null outside them. */
export function forecastWeightOn(
  points: ReadonlyArray<{ date: string; grams: number }>,
  date: string,
  daysBetween: (a: string, b: string) => number,
): number | null {
  const sorted = [...points].sort((a, b) => (a.date < b.date ? -1 : 1));
  for (let i = 0; i < sorted.length; i++) {
    const p = sorted[i]!;
    if (p.date === date) return p.grams;
    const next = sorted[i + 1];
    if (next && p.date < date && date < next.date) {
      const t = daysBetween(p.date, date) / daysBetween(p.date, next.date);
      return Math.round(p.grams + t * (next.grams - p.grams));
    }
  }
  return null;
}
