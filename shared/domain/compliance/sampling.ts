/**
 * Salmonella sampling due dates (docs/domain.md, "Salmonella sampling"): rearing flocks of laying hens as
 * day-old chicks and as pullets in the two weeks before they move to the laying unit or come into lay
 * (Reg. (EC) No 2160/2003, Annex II, Part B; the rearing plan of a cycle: ./rearing.ts); laying hens at
 * the operator's initiative every 15 weeks during the laying period, the first time at 24 ± 2 weeks of age
 * (Reg. (EU) No 517/2011, Annex, 2.1); broilers within the three weeks before they leave for slaughter
 * (Reg. (EU) No 200/2012, Annex, 2.1). The dates are the operator's own samples: an official sample does
 * not stand for one, nor restart the 15-week clock (the conservative reading, docs/domain.md).
 */
import { addDays, daysBetween } from '../../platform/calendar.js';
import type { RearingPlan } from './rearing.js';

export type SamplingStatus = 'done' | 'late' | 'early' | 'missed' | 'due' | 'upcoming';

/**
 * The dates of the operator's own samples: an official sample (kind `official`, taken by the competent
 * authority) neither stands for one nor restarts the laying hens' 15-week clock (docs/domain.md).
 */
export const operatorSampleDates = (samples: ReadonlyArray<{ date: string; kind: string }>): string[] =>
  samples.filter((s) => s.kind !== 'official').map((s) => s.date);

/** day_old and pre_move: a rearing flock's; laying: the 15-weekly sampling of laying hens; pre_slaughter: broilers'. */
export type SamplingKind = 'day_old' | 'pre_move' | 'laying' | 'pre_slaughter';

export interface SamplingOccurrence {
  kind: SamplingKind;
  /** The first day a sample counts for this occurrence. */
  from: string;
  /** The last day it is on time. */
  dueBy: string;
  status: SamplingStatus;
  /** The sample that satisfied it (on time, late or early), else null. */
  sampleDate: string | null;
}

export const LAYER_FIRST_WEEKS = 24;
export const LAYER_TOLERANCE_WEEKS = 2;
export const LAYER_INTERVAL_WEEKS = 15;
export const BROILER_WINDOW_DAYS = 21;

/**
 * A layer flock's sampling occurrences up to `asOf` (or the cycle's end), and the next one when it is not
 * yet due. Each occurrence is satisfied by the first sample in its window; a missed one is counted from
 * its last day, a late sample restarts the 15-week clock from its date.
 */
export function layerSampling(hatchDate: string, sampleDates: readonly string[], asOf: string, endDate: string | null = null): SamplingOccurrence[] {
  const samples = [...sampleDates].sort();
  const limit = endDate && endDate < asOf ? endDate : asOf;
  const out: SamplingOccurrence[] = [];
  let from = addDays(hatchDate, (LAYER_FIRST_WEEKS - LAYER_TOLERANCE_WEEKS) * 7);
  let dueBy = addDays(hatchDate, (LAYER_FIRST_WEEKS + LAYER_TOLERANCE_WEEKS) * 7);
  for (let guard = 0; guard < 200; guard++) {
    const onTime = samples.find((d) => d >= from && d <= dueBy && d <= limit);
    if (onTime) {
      out.push({ kind: 'laying', from, dueBy, status: 'done', sampleDate: onTime });
      [from, dueBy] = [addDays(onTime, 1), addDays(onTime, LAYER_INTERVAL_WEEKS * 7)];
      continue;
    }
    if (limit <= dueBy) {
      // the first window is due from 22 weeks; a 15-week repeat in its last two weeks
      const opens = out.length === 0 ? from : addDays(dueBy, -LAYER_TOLERANCE_WEEKS * 7);
      if (limit >= opens) out.push({ kind: 'laying', from, dueBy, status: 'due', sampleDate: null });
      else if (!endDate || endDate >= from) out.push({ kind: 'laying', from, dueBy, status: 'upcoming', sampleDate: null });
      break;
    }
    const late = samples.find((d) => d > dueBy && d <= limit);
    if (late) {
      out.push({ kind: 'laying', from, dueBy, status: 'late', sampleDate: late });
      [from, dueBy] = [addDays(late, 1), addDays(late, LAYER_INTERVAL_WEEKS * 7)];
    } else {
      out.push({ kind: 'laying', from, dueBy, status: 'missed', sampleDate: null });
      [from, dueBy] = [addDays(dueBy, 1), addDays(dueBy, LAYER_INTERVAL_WEEKS * 7)];
    }
  }
  return out;
}

/**
 * A broiler flock's sampling before slaughter: a sample in the three weeks up to the day the birds leave
 * (the first sale, else the expected harvest). Without either date nothing can be said (empty).
 */
export function broilerSampling(harvestDate: string | null, sampleDates: readonly string[], asOf: string): SamplingOccurrence[] {
  if (!harvestDate) return [];
  return [inWindow('pre_slaughter', addDays(harvestDate, -BROILER_WINDOW_DAYS), harvestDate, sampleDates, asOf)];
}

/**
 * A sample due in a window (broilers before slaughter; a rearing flock's day-old chicks, and its pullets
 * before the laying unit): the latest sample in it; while the window runs, due or upcoming; after its
 * last day, broilers' an early one (warn), a rearing flock's a late one (the samples of other ages are
 * not this one: before the window, it is missed).
 */
function inWindow(kind: SamplingKind, from: string, dueBy: string, sampleDates: readonly string[], asOf: string, rearing = false): SamplingOccurrence {
  const samples = [...sampleDates].sort();
  const onTime = samples.filter((d) => d >= from && d <= dueBy).at(-1);
  if (onTime) return { kind, from, dueBy, status: 'done', sampleDate: onTime };
  if (asOf <= dueBy) return { kind, from, dueBy, status: asOf >= from ? 'due' : 'upcoming', sampleDate: null };
  const late = rearing ? samples.find((d) => d > dueBy) : undefined;
  if (late) return { kind, from, dueBy, status: 'late', sampleDate: late };
  const early = rearing ? undefined : samples.filter((d) => d < from).at(-1);
  return { kind, from, dueBy, status: early ? 'early' : 'missed', sampleDate: early ?? null };
}

/** Pullets: the sample in the 14 days before they move to the laying unit (or come into lay: `move.on`), the day of the move excluded. */
export const PRE_MOVE_DAYS = 14;

/**
 * A rearing flock's samples (./rearing.ts `RearingPlan`): the day-old chicks' from their arrival until they
 * are 2 days old (a later one is late), and the pullets' in the 14 days before the move (a sample after the
 * move is late; without one in the 14 days, a sample taken earlier does not stand for it: missed).
 */
export function rearingSampling(plan: RearingPlan, sampleDates: readonly string[], asOf: string): SamplingOccurrence[] {
  const out: SamplingOccurrence[] = [];
  if (plan.dayOld) out.push(inWindow('day_old', plan.dayOld.from, plan.dayOld.until, sampleDates, asOf, true));
  if (plan.move) out.push(inWindow('pre_move', addDays(plan.move.on, -PRE_MOVE_DAYS), addDays(plan.move.on, -1), sampleDates, asOf, true));
  return out;
}

/** What a cycle's sampling is dated from. */
export interface SamplingBasis {
  birdType: string;
  /** Hatch date (else the cycle's start). */
  hatchDate: string;
  targetAgeDays: number | null;
  endDate: string | null;
  /** Layers: the samples of the pullets it rears (none: it reared none). */
  rearing?: RearingPlan;
  /** The last day the cycle held birds, once they have all left: nothing is sampled after it. */
  birdsGoneOn?: string | null;
}

/**
 * A cycle's sampling occurrences up to `asOf`: broilers before they leave (the first bird sale, else hatch
 * + the target age); layers the rearing flock's samples (day-old, pre-move) then the laying hens' from
 * their age; breeders the laying hens' alone. `why`: why a broiler's sampling cannot be dated.
 */
export function cycleSampling(
  c: SamplingBasis,
  sampleDates: readonly string[],
  firstBirdSale: string | null,
  asOf: string,
): { occurrences: SamplingOccurrence[]; why: string | null } {
  if (c.birdType !== 'broiler') {
    const end = c.birdsGoneOn && (!c.endDate || c.birdsGoneOn < c.endDate) ? c.birdsGoneOn : c.endDate;
    const rearing = c.birdType === 'layer' && c.rearing ? rearingSampling(c.rearing, sampleDates, asOf) : [];
    return { occurrences: [...rearing, ...layerSampling(c.hatchDate, sampleDates, asOf, end)], why: null };
  }
  const expectedHarvest = firstBirdSale ?? (c.targetAgeDays ? addDays(c.hatchDate, c.targetAgeDays) : null);
  return {
    occurrences: broilerSampling(expectedHarvest, sampleDates, asOf),
    why: 'No sale and no target age: the sampling before slaughter cannot be dated',
  };
}

export interface OpenSampling {
  /** due: its window is open and no sample is in it yet; overdue: its last day passed without a sample, and none was taken since. */
  status: 'due' | 'overdue';
  from: string;
  dueBy: string;
  /** Days left to sample, today included (due); 0 when overdue. */
  daysLeft: number;
  /** Days since its last day (overdue); 0 when due. */
  daysOverdue: number;
  /** The latest sample of the cycle up to today, if any. */
  lastSampleDate: string | null;
}

/** The occurrences open on `asOf`: the one due now, and the missed ones no sample has followed. */
export function openSampling(occurrences: readonly SamplingOccurrence[], sampleDates: readonly string[], asOf: string): OpenSampling[] {
  const taken = sampleDates.filter((d) => d <= asOf).sort();
  const lastSampleDate = taken.at(-1) ?? null;
  const out: OpenSampling[] = [];
  for (const o of occurrences) {
    if (o.status === 'due') out.push({ status: 'due', from: o.from, dueBy: o.dueBy, daysLeft: daysBetween(asOf, o.dueBy) + 1, daysOverdue: 0, lastSampleDate });
    if (o.status === 'missed' && !taken.some((d) => d > o.dueBy))
      out.push({ status: 'overdue', from: o.from, dueBy: o.dueBy, daysLeft: 0, daysOverdue: daysBetween(o.dueBy, asOf), lastSampleDate });
  }
  return out;
}
