/**
 * Salmonella sampling due dates (docs/domain.md, "Compliance"): laying hens are sampled at the operator's
 * initiative every 15 weeks during the laying period, the first time at 24 ± 2 weeks of age (Reg. (EU)
 * No 517/2011, Annex, 2.1); broilers within the three weeks before they leave for slaughter (Reg. (EU)
 * No 200/2012, Annex, 2.1), within the control programmes of Reg. (EC) No 2160/2003.
 */
import { addDays } from './dates.js';

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
