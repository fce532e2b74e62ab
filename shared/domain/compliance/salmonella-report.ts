/**
 * The report's salmonella_sampling rule (docs/domain.md, "Salmonella sampling"): each sampling of the cycle
 * (./sampling.ts) with its finding. A rearing flock's day-old or pre-move sample missing or late fails,
 * each named; a laying flock's 15-weekly sample missed fails and late warns (the clock restarts from it);
 * a broiler's missed sample before slaughter fails, an early one warns.
 */
import { result, type Finding, type RuleResult } from './report.js';
import type { SamplingKind, SamplingOccurrence } from './sampling.js';

/** What each sampling is called in a finding. */
export const SAMPLING_LABELS: Record<SamplingKind, string> = {
  day_old: 'day-old chick sample (chick box liners on arrival)',
  four_weeks: 'four-week sample of the breeders’ rearing flock (28–34 days of age)',
  pre_move: 'pre-move sample of the pullets (the two weeks before they move to the laying unit or come into lay)',
  laying: 'laying-flock sample (at the operator’s initiative, every 15 weeks)',
  breeding: 'breeding-flock sample (at the operator’s initiative, every second week in lay)',
  pre_slaughter: 'sample before slaughter (the three weeks before the birds leave)',
};
const SHORT: Record<SamplingKind, string> = {
  day_old: 'day-old',
  four_weeks: 'four-week',
  pre_move: 'pre-move',
  laying: 'laying',
  breeding: 'breeding',
  pre_slaughter: 'pre-slaughter',
};

/** Late: a rearing sample after its window is no longer the sample the rule asks for (fail); a laying one restarts the clock (warn). */
const LATE_FAILS: ReadonlySet<SamplingKind> = new Set(['day_old', 'four_weeks', 'pre_move']);

function findingOf(o: SamplingOccurrence): Finding | null {
  const evidence = { kind: o.kind, from: o.from, dueBy: o.dueBy, sampleDate: o.sampleDate, status: o.status };
  const label = SAMPLING_LABELS[o.kind];
  if (o.status === 'missed') return { status: 'fail', date: o.dueBy, message: `No ${label} between ${o.from} and ${o.dueBy}`, evidence };
  if (o.status === 'late')
    return {
      status: LATE_FAILS.has(o.kind) ? 'fail' : 'warn',
      date: o.sampleDate,
      message: `The ${label} was taken on ${o.sampleDate}, after it was due by ${o.dueBy}`,
      evidence,
    };
  if (o.status === 'early')
    return { status: 'warn', date: o.sampleDate, message: `Last sample ${o.sampleDate} was more than 3 weeks before slaughter (${o.dueBy})`, evidence };
  return null;
}

/**
 * The rule over a cycle's samplings. `why`: why none could be dated (a broiler without a sale or target
 * age); `official`: the official samples of the cycle, listed but not counted as the operator's.
 */
export function salmonellaRule(birdType: string, occurrences: readonly SamplingOccurrence[], why: string | null, official = 0): RuleResult {
  const findings: Finding[] = [];
  if (occurrences.length === 0 && why) findings.push({ status: 'warn', date: null, message: why, evidence: { birdType } });
  for (const o of occurrences) {
    const f = findingOf(o);
    if (f) findings.push(f);
  }
  const next = occurrences.find((o) => o.status === 'due' || o.status === 'upcoming');
  const done = occurrences.filter((o) => o.status === 'done');
  const onTime = done.length ? ` (${done.map((o) => `${SHORT[o.kind]} on ${o.sampleDate}`).join(', ')})` : '';
  const nextText = next ? `; next: ${SHORT[next.kind]} ${next.status} ${next.from} to ${next.dueBy}` : '';
  const officialText = official ? `; ${official} official sample(s) recorded, not counted as the operator’s` : '';
  return result(
    'salmonella_sampling',
    findings,
    `${done.length} sampling(s) on time${onTime}${nextText}${officialText}`,
    `${findings.length} finding(s)${nextText}${officialText}`,
  );
}
