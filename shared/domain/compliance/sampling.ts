/**
 * Salmonella sampling due dates (docs/domain.md, "Salmonella sampling"): rearing flocks of laying hens as
 * day-old chicks and as pullets in the two weeks before they move to the laying unit or come into lay
 * (Reg. (EC) No 2160/2003, Annex II, Part B; the rearing plan of a cycle: ./rearing.ts); rearing flocks of
 * breeders also at four weeks of age (Reg. (EC) No 2160/2003, Annex II, Part B, point 1); laying hens at the
 * operator's initiative every 15 weeks during the laying period, the first time at 24 ± 2 weeks of age
 * (Reg. (EU) No 517/2011, Annex, 2.1); adult breeding flocks every second week during the laying period
 * (Reg. (EU) No 200/2010, Annex, 2.2.2.1); broilers within the three weeks before they leave for slaughter
 * (Reg. (EU) No 200/2012, Annex, 2.1). The dates are the operator's own samples: an official sample does
 * not stand for one, nor restart a clock (the conservative reading, docs/domain.md).
 */
import { addDays, daysBetween } from '../../platform/calendar.js';
import { layingMaturityOn } from '../laying-maturity.js';
import type { RearingPlan } from './rearing.js';

export type SamplingStatus = 'done' | 'late' | 'early' | 'missed' | 'due' | 'upcoming';

/**
 * The dates of the operator's own samples: an official sample (kind `official`, taken by the competent
 * authority) neither stands for one nor restarts the laying hens' 15-week clock (docs/domain.md).
 */
export const operatorSampleDates = (samples: ReadonlyArray<{ date: string; kind: string }>): string[] =>
  samples.filter((s) => s.kind !== 'official').map((s) => s.date);

/**
 * day_old, four_weeks (breeders) and pre_move: a rearing flock's; laying: the 15-weekly sampling of laying
 * hens; breeding: the two-weekly sampling of adult breeders in lay; pre_slaughter: broilers'.
 */
export type SamplingKind = 'day_old' | 'four_weeks' | 'pre_move' | 'laying' | 'breeding' | 'pre_slaughter';

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
/** Adult breeders: every second week of the laying period. */
export const BREEDER_INTERVAL_DAYS = 14;
export const BROILER_WINDOW_DAYS = 21;
/** A repeat sample is due in the last two weeks before its deadline (before that, it is upcoming). */
const REPEAT_DUE_DAYS = 14;

/**
 * Repeated sampling up to `asOf` (or the cycle's end), and the next one when it is not yet due. Each
 * occurrence is satisfied by the first sample in its window; a missed one is counted from its last day, a
 * late sample (within one interval of the deadline) restarts the clock from its date.
 */
function repeatedSampling(
  kind: 'laying' | 'breeding',
  first: { from: string; dueBy: string },
  intervalDays: number,
  sampleDates: readonly string[],
  asOf: string,
  endDate: string | null,
): SamplingOccurrence[] {
  const samples = [...sampleDates].sort();
  const limit = endDate && endDate < asOf ? endDate : asOf;
  const out: SamplingOccurrence[] = [];
  let { from, dueBy } = first;
  for (let guard = 0; guard < 400; guard++) {
    const onTime = samples.find((d) => d >= from && d <= dueBy && d <= limit);
    if (onTime) {
      out.push({ kind, from, dueBy, status: 'done', sampleDate: onTime });
      [from, dueBy] = [addDays(onTime, 1), addDays(onTime, intervalDays)];
      continue;
    }
    if (limit <= dueBy) {
      // the first window is due from its first day; a repeat in its last two weeks
      const opens = out.length === 0 ? from : addDays(dueBy, -REPEAT_DUE_DAYS);
      if (limit >= opens) out.push({ kind, from, dueBy, status: 'due', sampleDate: null });
      else if (!endDate || endDate >= from) out.push({ kind, from, dueBy, status: 'upcoming', sampleDate: null });
      break;
    }
    // a sample after the deadline is that occurrence's, late, when it comes within one interval of it; later
    // than that, a whole interval passed without one: missed, and the next occurrence counts from the deadline
    const late = samples.find((d) => d > dueBy && d <= limit && d <= addDays(dueBy, intervalDays));
    if (late) {
      out.push({ kind, from, dueBy, status: 'late', sampleDate: late });
      [from, dueBy] = [addDays(late, 1), addDays(late, intervalDays)];
    } else {
      out.push({ kind, from, dueBy, status: 'missed', sampleDate: null });
      [from, dueBy] = [addDays(dueBy, 1), addDays(dueBy, intervalDays)];
    }
  }
  return out;
}

/** A layer flock's sampling in lay: from 22 to 26 weeks of age, then every 15 weeks. */
export function layerSampling(hatchDate: string, sampleDates: readonly string[], asOf: string, endDate: string | null = null): SamplingOccurrence[] {
  const first = {
    from: addDays(hatchDate, (LAYER_FIRST_WEEKS - LAYER_TOLERANCE_WEEKS) * 7),
    dueBy: addDays(hatchDate, (LAYER_FIRST_WEEKS + LAYER_TOLERANCE_WEEKS) * 7),
  };
  return repeatedSampling('laying', first, LAYER_INTERVAL_WEEKS * 7, sampleDates, asOf, endDate);
}

/** An adult breeding flock's sampling in lay: in the first two weeks of the laying period (from `layingFrom`), then every second week. */
export function breederSampling(layingFrom: string, sampleDates: readonly string[], asOf: string, endDate: string | null = null): SamplingOccurrence[] {
  return repeatedSampling(
    'breeding',
    { from: layingFrom, dueBy: addDays(layingFrom, BREEDER_INTERVAL_DAYS - 1) },
    BREEDER_INTERVAL_DAYS,
    sampleDates,
    asOf,
    endDate,
  );
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
 * A sample due in a window (broilers before slaughter; a rearing flock's day-old chicks, four-week birds and
 * pullets before the laying unit): the latest sample in it; while the window runs, due or upcoming; after
 * its last day, broilers' an early one (warn), a rearing flock's a late one, taken before the next
 * rearing window opens (`lateBefore`: a sample of that window is its own, not a late one of this); else
 * missed.
 */
function inWindow(
  kind: SamplingKind,
  from: string,
  dueBy: string,
  sampleDates: readonly string[],
  asOf: string,
  rearing: { lateBefore: string | null } | null = null,
): SamplingOccurrence {
  const samples = [...sampleDates].sort();
  const onTime = samples.filter((d) => d >= from && d <= dueBy).at(-1);
  if (onTime) return { kind, from, dueBy, status: 'done', sampleDate: onTime };
  if (asOf <= dueBy) return { kind, from, dueBy, status: asOf >= from ? 'due' : 'upcoming', sampleDate: null };
  const late = rearing ? samples.find((d) => d > dueBy && (rearing.lateBefore === null || d < rearing.lateBefore)) : undefined;
  if (late) return { kind, from, dueBy, status: 'late', sampleDate: late };
  const early = rearing ? undefined : samples.filter((d) => d < from).at(-1);
  return { kind, from, dueBy, status: early ? 'early' : 'missed', sampleDate: early ?? null };
}

/** Pullets: the sample in the 14 days before they move to the laying unit (or come into lay: `move.on`), the day of the move excluded. */
export const PRE_MOVE_DAYS = 14;

/**
 * A rearing flock's samples (./rearing.ts `RearingPlan`): the day-old chicks' from their arrival until they
 * are 2 days old (a later one is late), breeders' at four weeks of age (a later one is late), and the
 * pullets' in the 14 days before the move (a sample after the move is late; without one in the 14 days, a
 * sample taken earlier does not stand for it: missed).
 */
export function rearingSampling(plan: RearingPlan, sampleDates: readonly string[], asOf: string): SamplingOccurrence[] {
  const windows: Array<{ kind: SamplingKind; from: string; dueBy: string }> = [];
  if (plan.dayOld) windows.push({ kind: 'day_old', from: plan.dayOld.from, dueBy: plan.dayOld.until });
  if (plan.fourWeeks) windows.push({ kind: 'four_weeks', from: plan.fourWeeks.from, dueBy: plan.fourWeeks.until });
  if (plan.move) windows.push({ kind: 'pre_move', from: addDays(plan.move.on, -PRE_MOVE_DAYS), dueBy: addDays(plan.move.on, -1) });
  return windows.map((w, i) => inWindow(w.kind, w.from, w.dueBy, sampleDates, asOf, { lateBefore: windows[i + 1]?.from ?? null }));
}

/** What a cycle's sampling is dated from. */
export interface SamplingBasis {
  birdType: string;
  /** Hatch date (else the cycle's start). */
  hatchDate: string;
  targetAgeDays: number | null;
  endDate: string | null;
  /** Layers and breeders: the samples of the pullets it rears (none: it reared none). */
  rearing?: RearingPlan;
  /** Breeders: the first day of the laying period (../laying-maturity.ts); default: the point of lay by age. */
  layingFrom?: string | null;
  /** The last day the cycle held birds, once they have all left: nothing is sampled after it. */
  birdsGoneOn?: string | null;
}

/**
 * A cycle's sampling occurrences up to `asOf`: broilers before they leave (the first bird sale, else hatch
 * + the target age); layers the rearing flock's samples (day-old, pre-move) then the laying hens' from
 * their age; breeders the rearing flock's (day-old, four weeks, pre-move) then every second week of lay.
 * `why`: why a broiler's sampling cannot be dated.
 */
export function cycleSampling(
  c: SamplingBasis,
  sampleDates: readonly string[],
  firstBirdSale: string | null,
  asOf: string,
): { occurrences: SamplingOccurrence[]; why: string | null } {
  if (c.birdType !== 'broiler') {
    const end = c.birdsGoneOn && (!c.endDate || c.birdsGoneOn < c.endDate) ? c.birdsGoneOn : c.endDate;
    const rearing = c.rearing ? rearingSampling(c.rearing, sampleDates, asOf) : [];
    const layingFrom = c.layingFrom ?? layingMaturityOn({ birdType: c.birdType, ageOrigin: c.hatchDate, firstEggOn: null });
    const inLay =
      c.birdType === 'breeder' && layingFrom ? breederSampling(layingFrom, sampleDates, asOf, end) : layerSampling(c.hatchDate, sampleDates, asOf, end);
    return { occurrences: [...rearing, ...inLay], why: null };
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
