/**
 * Salmonella sampling due dates (docs/domain.md, "Compliance"): laying hens are sampled at the operator's
 * initiative every 15 weeks during the laying period, the first time at 24 ± 2 weeks of age (Reg. (EU)
 * No 517/2011, Annex, 2.1); broilers within the three weeks before they leave for slaughter (Reg. (EU)
 * No 200/2012, Annex, 2.1), within the control programmes of Reg. (EC) No 2160/2003.
 */
import { addDays, daysBetween } from '../../platform/calendar.js';

export type SamplingStatus = 'done' | 'late' | 'early' | 'missed' | 'due' | 'upcoming';

export interface SamplingOccurrence {
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
      out.push({ from, dueBy, status: 'done', sampleDate: onTime });
      [from, dueBy] = [addDays(onTime, 1), addDays(onTime, LAYER_INTERVAL_WEEKS * 7)];
      continue;
    }
    if (limit <= dueBy) {
      // the first window is due from 22 weeks; a 15-week repeat in its last two weeks
      const opens = out.length === 0 ? from : addDays(dueBy, -LAYER_TOLERANCE_WEEKS * 7);
      if (limit >= opens) out.push({ from, dueBy, status: 'due', sampleDate: null });
      else if (!endDate || endDate >= from) out.push({ from, dueBy, status: 'upcoming', sampleDate: null });
      break;
    }
    const late = samples.find((d) => d > dueBy && d <= limit);
    if (late) {
      out.push({ from, dueBy, status: 'late', sampleDate: late });
      [from, dueBy] = [addDays(late, 1), addDays(late, LAYER_INTERVAL_WEEKS * 7)];
    } else {
      out.push({ from, dueBy, status: 'missed', sampleDate: null });
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
  const from = addDays(harvestDate, -BROILER_WINDOW_DAYS);
  const samples = [...sampleDates].sort();
  const onTime = samples.filter((d) => d >= from && d <= harvestDate).at(-1);
  if (onTime) return [{ from, dueBy: harvestDate, status: 'done', sampleDate: onTime }];
  const early = samples.filter((d) => d < from).at(-1);
  if (asOf > harvestDate) return [{ from, dueBy: harvestDate, status: early ? 'early' : 'missed', sampleDate: early ?? null }];
  return [{ from, dueBy: harvestDate, status: asOf >= from ? 'due' : 'upcoming', sampleDate: null }];
}

/** What a cycle's sampling is dated from. */
export interface SamplingBasis {
  birdType: string;
  /** Hatch date (else the cycle's start). */
  hatchDate: string;
  targetAgeDays: number | null;
  endDate: string | null;
}

/**
 * A cycle's sampling occurrences up to `asOf`: broilers before they leave (the first bird sale, else hatch
 * + the target age), layers and breeders from their age. `why`: why a broiler's sampling cannot be dated.
 */
export function cycleSampling(
  c: SamplingBasis,
  sampleDates: readonly string[],
  firstBirdSale: string | null,
  asOf: string,
): { occurrences: SamplingOccurrence[]; why: string | null } {
  if (c.birdType !== 'broiler') return { occurrences: layerSampling(c.hatchDate, sampleDates, asOf, c.endDate), why: null };
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
