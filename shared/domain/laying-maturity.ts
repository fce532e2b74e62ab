/**
 * The one rule of LAYING MATURITY: from which day a layer or breeder cycle's birds are hens in lay rather
 * than pullets. Council Directive 1999/74/EC covers "hens of the species Gallus gallus which have reached
 * laying maturity" (Art. 2(2)(a)), so its stocking limits judge the birds from that day only, and the
 * Salmonella pre-move sample of a rearing flock is due two weeks before the birds move to the laying unit
 * or come into lay (Reg. (EC) No 2160/2003, Annex II, Part B).
 *
 * The birds have reached laying maturity on the EARLIER of:
 * - the first day the cycle records eggs (an egg collection of at least one egg): they lay;
 * - the day they reach the point of lay: the first day of the laying phase of their bird type
 *   (PHASE_BOUNDARIES of ./weights.ts: layers at 126 days, 18 weeks, the first week of the Hy-Line Brown
 *   standard at 6.7 % hen-day; breeders at 168 days), their age counted by ./age.ts.
 * Broilers never do. Documented in docs/domain.md ("Laying maturity").
 */
import { addDays } from '../platform/calendar.js';
import { PHASE_BOUNDARIES } from './weights.js';

/** The age (days) at which a bird type reaches the point of lay; null for a type that does not lay (broilers). */
export function pointOfLayAgeDays(birdType: string): number | null {
  const phases = PHASE_BOUNDARIES[birdType as keyof typeof PHASE_BOUNDARIES];
  return phases?.find(([, phase]) => phase === 'laying')?.[0] ?? null;
}

export interface MaturityBasis {
  birdType: string;
  /** The date the birds' age counts from (./age.ts `ageOrigin`). */
  ageOrigin: string;
  /** The first date the cycle records eggs, if any. */
  firstEggOn: string | null;
}

/** The first day the birds are laying hens (see the module note); null for broilers. */
export function layingMaturityOn(b: MaturityBasis): string | null {
  const age = pointOfLayAgeDays(b.birdType);
  if (age === null) return null;
  const byAge = addDays(b.ageOrigin, age);
  return b.firstEggOn && b.firstEggOn < byAge ? b.firstEggOn : byAge;
}

/** The first date of `movements` with eggs collected (egg_collection with totalEggs > 0), else null. */
export function firstEggOf(movements: ReadonlyArray<{ type: string; date: string; fields: Record<string, unknown> }>): string | null {
  let first: string | null = null;
  for (const m of movements) if (m.type === 'egg_collection' && Number(m.fields.totalEggs ?? 0) > 0 && (first === null || m.date < first)) first = m.date;
  return first;
}
