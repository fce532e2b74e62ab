/**
 * A layer or breeder cycle as a REARING FLOCK (docs/domain.md, "Salmonella sampling"): whether it placed
 * day-old chicks, and when its pullets move to the laying unit or come into lay, the dates the rearing
 * samples of Reg. (EC) No 2160/2003, Annex II, Part B are due by (./sampling.ts `rearingSampling`);
 * breeders reared from day-old chicks are also sampled at four weeks of age.
 *
 * - Day-old chicks: the first bird_inflow of birds at most 2 days old (a day-old chick is under 72 hours
 *   old), their age by ../age.ts (without a hatch date a placement is age 0: set the flock's hatch date
 *   for birds placed older). Their sample is due from that day until they are 2 days old.
 * - The move: the first day before laying maturity (../laying-maturity.ts) on which bird_transfer_out and
 *   bird_sale movements take at least half of the birds present (pullets leave a rearing house together;
 *   a few birds sold early are not the move), or the day the last birds left before it. Birds still there
 *   at laying maturity came into lay in place: that day is the move. Until then, the expected move: the
 *   cycle's planned depletion (hatch + `targetAgeDays`) when it comes before laying maturity, else the
 *   point of lay.
 * - A cycle that placed no day-old chicks and moved no pullets out (a laying cycle stocked by a transfer)
 *   rears none: the samples of its pullets were its rearing flock's.
 */
import { addDays, daysBetween } from '../../platform/calendar.js';
import { layingMaturityOn } from '../laying-maturity.js';
import type { BirdDay } from './density.js';

/** A day-old chick is less than 72 hours old: its sample is on time up to age 2 days. */
export const DAY_OLD_MAX_AGE_DAYS = 2;
/** Breeders "when the birds are four weeks old": from 28 days of age to the last day of that week (34 days). */
export const FOUR_WEEKS_AGE_DAYS = { from: 28, until: 34 };

const rears = (birdType: string) => birdType === 'layer' || birdType === 'breeder';

/** Breeders reared from day-old chicks are also sampled at four weeks of age (Reg. (EC) No 2160/2003, Annex II, Part B, point 1): the plan's `fourWeeks`, else nothing. */
function fourWeeksWindow(birdType: string, ageOrigin: string, dayOld: RearingPlan['dayOld']): Pick<RearingPlan, 'fourWeeks'> {
  if (birdType !== 'breeder' || !dayOld) return {};
  return { fourWeeks: { from: addDays(ageOrigin, FOUR_WEEKS_AGE_DAYS.from), until: addDays(ageOrigin, FOUR_WEEKS_AGE_DAYS.until) } };
}

export interface RearingPlan {
  /** The day-old sample's window: the chicks' arrival to the day they are 2 days old; null: no day-old chicks placed. */
  dayOld: { from: string; until: string } | null;
  /** Breeders reared from day-old chicks: the sample at four weeks of age (28–34 days old); else absent. */
  fourWeeks?: { from: string; until: string };
  /** When the pullets move to the laying unit or come into lay (`actual`: it happened; else expected); null: the cycle rears no pullets. */
  move: { on: string; actual: boolean } | null;
}

export const NO_REARING: RearingPlan = { dayOld: null, move: null };

const OUT = new Set(['bird_transfer_out', 'bird_sale']);
const BIRDS_IN = new Set(['bird_inflow', 'bird_transfer_in']);
const BIRDS_OUT = new Set(['bird_mortality', 'bird_cull', 'bird_sale', 'bird_transfer_out']);

interface Movement {
  type: string;
  date: string;
  quantity: number;
}

/** The day-old sample's window of chicks placed on `placedOn`, when they were at most 2 days old (else null). */
function dayOldWindow(ageOrigin: string, placedOn: string | null | undefined): RearingPlan['dayOld'] {
  if (!placedOn || daysBetween(ageOrigin, placedOn) > DAY_OLD_MAX_AGE_DAYS) return null;
  const until = addDays(ageOrigin, DAY_OLD_MAX_AGE_DAYS);
  return { from: placedOn, until: until > placedOn ? until : placedOn };
}

/** The expected move of pullets not moved yet on `asOf`: the planned depletion when before laying maturity and still ahead, else laying maturity. */
function expectedMove(ageOrigin: string, targetAgeDays: number | null, layingFrom: string, asOf: string): RearingPlan['move'] {
  if (asOf >= layingFrom) return { on: layingFrom, actual: true };
  const planned = targetAgeDays ? addDays(ageOrigin, targetAgeDays) : null;
  return { on: planned && planned > asOf && planned < layingFrom ? planned : layingFrom, actual: false };
}

/** The last day the cycle held birds, when they have all left by the end of its movements (null: birds remain, or none came). */
export function birdsGoneOn(movements: readonly Movement[]): string | null {
  let housed = 0;
  let left = 0;
  let lastOut: string | null = null;
  for (const m of movements) {
    if (BIRDS_IN.has(m.type)) housed += m.quantity;
    if (BIRDS_OUT.has(m.type)) {
      left += m.quantity;
      if (lastOut === null || m.date > lastOut) lastOut = m.date;
    }
  }
  return housed > 0 && left >= housed ? lastOut : null;
}

/** The rearing plan of a layer cycle from its movements and the birds present per day (see the module note). */
export function rearingPlanOf(x: {
  birdType: string;
  ageOrigin: string;
  movements: readonly Movement[];
  days: readonly BirdDay[];
  firstEggOn: string | null;
  targetAgeDays: number | null;
  asOf: string;
}): RearingPlan {
  const layingFrom = layingMaturityOn({ birdType: x.birdType, ageOrigin: x.ageOrigin, firstEggOn: x.firstEggOn });
  if (!rears(x.birdType) || !layingFrom) return NO_REARING;
  const firstInflow = x.movements
    .filter((m) => m.type === 'bird_inflow' && m.quantity > 0)
    .map((m) => m.date)
    .sort()[0];
  const dayOld = dayOldWindow(x.ageOrigin, firstInflow);
  const fourWeeks = fourWeeksWindow(x.birdType, x.ageOrigin, dayOld);
  const present = new Map(x.days.map((d) => [d.date, d.birds]));
  const outOn = new Map<string, number>();
  for (const m of x.movements) if (OUT.has(m.type) && m.date < layingFrom) outOn.set(m.date, (outOn.get(m.date) ?? 0) + m.quantity);
  const gone = birdsGoneOn(x.movements);
  const moved =
    [...outOn.entries()]
      .filter(([date, n]) => n * 2 >= (present.get(date) ?? Number.POSITIVE_INFINITY))
      .map(([date]) => date)
      .sort()[0] ?? (gone && gone < layingFrom ? gone : undefined);
  if (moved) return { dayOld, ...fourWeeks, move: { on: moved, actual: true } };
  if (!dayOld) return NO_REARING;
  return { dayOld, ...fourWeeks, move: expectedMove(x.ageOrigin, x.targetAgeDays, layingFrom, x.asOf) };
}

/**
 * The rearing plan as the dashboards read it, from the cycle record's counters alone (no movement read):
 * what is still to do today. Pullets that moved out or lay already have nothing left to sample before the
 * move (its date is then not needed), so `move` is only the expected one.
 */
export function rearingPlanFromCounters(
  c: {
    birdType: string;
    placedOn?: string | null;
    targetAgeDays: number | null;
    placed: number;
    transferredIn: number;
    transferredOut: number;
    sold: number;
    eggsCollected: number;
  },
  ageOrigin: string,
  today: string,
): RearingPlan {
  const layingFrom = layingMaturityOn({ birdType: c.birdType, ageOrigin, firstEggOn: null });
  if (!rears(c.birdType) || !layingFrom) return NO_REARING;
  const dayOld = dayOldWindow(ageOrigin, c.placedOn);
  if (!dayOld) return NO_REARING;
  const fourWeeks = fourWeeksWindow(c.birdType, ageOrigin, dayOld);
  const housed = c.placed + c.transferredIn;
  const movedOrLaying = c.eggsCollected > 0 || (c.transferredOut + c.sold) * 2 >= housed || today >= layingFrom;
  return { dayOld, ...fourWeeks, move: movedOrLaying ? null : expectedMove(ageOrigin, c.targetAgeDays, layingFrom, today) };
}
