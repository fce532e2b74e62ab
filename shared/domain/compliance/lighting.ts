/**
 * The report's lighting rule (docs/domain.md, "Lighting"), without I/O: each recorded day's photoperiod
 * (`lightHours`) and longest uninterrupted dark period (`longestDarkHours`, else one dark period of
 * 24 − lightHours) against
 * - the legal darkness of the bird type: broilers from 7 days of age until 3 days before slaughter at least
 *   6 h of darkness in total (`thresholds.minDarkHours`, never less than the law's 6) with one uninterrupted
 *   period of at least 4 h (Council Directive 2007/43/EC, Annex I, point 6: fail); laying hens an
 *   uninterrupted dark period of "by way of indication, about one third of the day" (Council Directive
 *   1999/74/EC, Annex, point 3: 8 h, warn, an indication); breeders neither (both Directives leave them out);
 * - the breed's lighting programme where one is sourced (Hy-Line Brown rearing: 9–10 h from 10 weeks), off
 *   by more than 0.5 h: warn;
 * - the step-up of layers and breeders: light raised more than `thresholds.lightStepUpMaxHoursPerWeek`
 *   (default 1 h) within a week, or raised at all during rearing before the step-up age: warn.
 */
import { result, RULES, type Finding, type RuleResult } from './report.js';

export type LightingBirdType = 'broiler' | 'layer' | 'breeder';

/** One recorded day with a photoperiod. */
export interface LitDay {
  date: string;
  ageDays: number;
  lightHours: number;
  /** As recorded; null: one dark period of 24 − lightHours. */
  longestDarkHours: number | null;
}

/** A span of a guide's programme: from an age (days, inclusive) to an age (exclusive, null: open), the hours of light it plans. */
export interface ProgrammeStep {
  fromAgeDays: number;
  toAgeDays: number | null;
  minHours: number;
  maxHours: number;
}

export interface LightingProgramme {
  id: string;
  source: string;
  steps: readonly ProgrammeStep[];
}

/**
 * Hy-Line Brown, as far as we could source it: "Reduce the day length weekly to reach 9 to 10 hours at 10
 * weeks of age … In Hy-Line Brown and CV-22 varieties, a constant day length of 9 hours may be used to
 * control excessive body weight after 10 weeks of age" (Hy-Line International, Red Book, "Basic Rules for
 * Lighting Programs", the online management guide, undated). From 10 weeks until the step-up age (17 weeks,
 * the guide's minimum age of sexual maturity). Hy-Line's Hy-Line Brown management guides carry a lighting
 * programme, but no public copy we found let us read its lighting page (docs/domain.md, "Lighting"): no
 * planned hours of the laying step-up after 17 weeks; the step-up is bounded by the configured
 * `thresholds.lightStepUpMaxHoursPerWeek` instead.
 */
export const HY_LINE_BROWN_LIGHTING: LightingProgramme = {
  id: 'hy-line-brown',
  source: 'Hy-Line International, Red Book, “Basic Rules for Lighting Programs”, http://www.hyline.com/aspx/redbook/redbook.aspx?s=4&p=23',
  steps: [{ fromAgeDays: 70, toAgeDays: 119, minHours: 9, maxHours: 10 }],
};

/** The cycle's own programme (steps of {fromAgeDays, lightHours}, each until the next) as a programme. */
export function cycleProgramme(steps: ReadonlyArray<{ fromAgeDays: number; lightHours: number }> | null | undefined): LightingProgramme | null {
  if (!steps?.length) return null;
  return {
    id: 'cycle',
    source: 'the cycle’s lightingProgramme, set by the farm',
    steps: steps.map((s, n) => ({ fromAgeDays: s.fromAgeDays, toAgeDays: steps[n + 1]?.fromAgeDays ?? null, minHours: s.lightHours, maxHours: s.lightHours })),
  };
}

/** The lighting programme of a breed standard's id, when one is sourced. */
export const lightingProgrammeOf = (standardId: string | null | undefined): LightingProgramme | null =>
  standardId === HY_LINE_BROWN_LIGHTING.id ? HY_LINE_BROWN_LIGHTING : null;

/** Broilers (2007/43/EC, Annex I, point 6): darkness in total and the longest uninterrupted period, hours. */
export const BROILER_MIN_DARK_HOURS = 6;
export const BROILER_MIN_UNINTERRUPTED_DARK_HOURS = 4;
/** Broilers: from this age (days) … */
export const BROILER_DARK_FROM_AGE_DAYS = 7;
/** … until this many days before slaughter. */
export const BROILER_DARK_UNTIL_DAYS_BEFORE_SLAUGHTER = 3;
/** Laying hens (1999/74/EC, Annex, point 3): "about one third of the day", by way of indication. */
export const LAYER_INDICATIVE_DARK_HOURS = 8;
/** Off the programme by more than this many hours: warn. */
export const PROGRAMME_TOLERANCE_HOURS = 0.5;
/**
 * A step-up of more than this many hours within 7 days: warn. The default of `thresholds.lightStepUpMaxHoursPerWeek`:
 * a bound we chose, as no public source gave Hy-Line's laying step-up figures (docs/domain.md, "Lighting").
 */
export const MAX_STEP_UP_HOURS_PER_WEEK = 1;
/** The step-up age (days): layers 17 weeks (Hy-Line's minimum age of sexual maturity), breeders 21 weeks (light stimulation at 21–22 weeks). */
export const STEP_UP_AGE_DAYS: Record<Exclude<LightingBirdType, 'broiler'>, number> = { layer: 119, breeder: 147 };

export interface LightingInput {
  birdType: LightingBirdType;
  /** Recorded days with a photoperiod, any order. */
  days: readonly LitDay[];
  programme: LightingProgramme | null;
  /** Layers: the day the hens reach laying maturity (the Directive protects laying hens from it). */
  layingFrom: string | null;
  /** Broilers: the day they leave for slaughter (first sale, else the target age), if known. */
  slaughterOn: string | null;
  daysBetween: (a: string, b: string) => number;
  /**
   * Broilers' darkness a day, hours (`thresholds.minDarkHours`; default and legal minimum 6) and layers' and
   * breeders' largest step-up within 7 days (`thresholds.lightStepUpMaxHoursPerWeek`; default 1).
   */
  limits?: { minDarkHours: number; stepUpMaxHoursPerWeek: number };
}

const DEFAULT_LIMITS = { minDarkHours: BROILER_MIN_DARK_HOURS, stepUpMaxHoursPerWeek: MAX_STEP_UP_HOURS_PER_WEEK };
const limitsOf = (i: LightingInput) => i.limits ?? DEFAULT_LIMITS;

const hours = (n: number) => `${Number(n.toFixed(2))} h`;

/** The legal darkness finding of one day, if it falls short. */
function darknessFinding(d: LitDay, i: LightingInput): Finding | null {
  const dark = 24 - d.lightHours;
  const longest = d.longestDarkHours ?? dark;
  const evidence = { ageDays: d.ageDays, lightHours: d.lightHours, darkHours: dark, longestDarkHours: longest };
  if (i.birdType === 'broiler') {
    const { minDarkHours } = limitsOf(i);
    if (d.ageDays < BROILER_DARK_FROM_AGE_DAYS) return null;
    if (i.slaughterOn && i.daysBetween(d.date, i.slaughterOn) < BROILER_DARK_UNTIL_DAYS_BEFORE_SLAUGHTER) return null;
    const short = [
      ...(dark < minDarkHours ? [`${hours(dark)} of darkness (at least ${minDarkHours} h)`] : []),
      ...(longest < BROILER_MIN_UNINTERRUPTED_DARK_HOURS
        ? [`a longest uninterrupted dark period of ${hours(longest)} (at least ${BROILER_MIN_UNINTERRUPTED_DARK_HOURS} h)`]
        : []),
    ];
    return short.length ? { status: 'fail', date: d.date, message: `${d.date}: ${short.join(' and ')}`, evidence } : null;
  }
  if (i.birdType === 'layer' && i.layingFrom && d.date >= i.layingFrom && longest < LAYER_INDICATIVE_DARK_HOURS)
    return {
      status: 'warn',
      date: d.date,
      message: `${d.date}: a longest uninterrupted dark period of ${hours(longest)}, under the indicative third of the day (${LAYER_INDICATIVE_DARK_HOURS} h)`,
      evidence,
    };
  return null;
}

/** The programme's finding of one day: off its planned hours by more than the tolerance. */
function programmeFinding(d: LitDay, p: LightingProgramme): Finding | null {
  const step = p.steps.find((s) => d.ageDays >= s.fromAgeDays && (s.toAgeDays === null || d.ageDays < s.toAgeDays));
  if (!step) return null;
  const off = d.lightHours < step.minHours ? step.minHours - d.lightHours : d.lightHours > step.maxHours ? d.lightHours - step.maxHours : 0;
  if (off <= PROGRAMME_TOLERANCE_HOURS) return null;
  const planned = step.minHours === step.maxHours ? hours(step.minHours) : `${step.minHours}–${hours(step.maxHours)}`;
  return {
    status: 'warn',
    date: d.date,
    message: `${d.date}: ${hours(d.lightHours)} of light at ${d.ageDays} days, ${p.id === 'cycle' ? 'the cycle’s' : `the ${p.id}`} programme plans ${planned}`,
    evidence: { ageDays: d.ageDays, lightHours: d.lightHours, programme: p.id, planned: { minHours: step.minHours, maxHours: step.maxHours } },
  };
}

/** Layers and breeders: a day that raised the light, judged against the week before it and the step-up age. */
function stepFinding(d: LitDay, previous: LitDay, days: readonly LitDay[], i: LightingInput): Finding | null {
  if (i.birdType === 'broiler' || d.lightHours <= previous.lightHours) return null;
  const stepUpAge = STEP_UP_AGE_DAYS[i.birdType];
  const evidence = { ageDays: d.ageDays, lightHours: d.lightHours, previous: { date: previous.date, lightHours: previous.lightHours } };
  if (d.ageDays >= BROILER_DARK_FROM_AGE_DAYS && d.ageDays < stepUpAge && !(i.layingFrom && d.date >= i.layingFrom))
    return {
      status: 'warn',
      date: d.date,
      message: `${d.date}: light raised from ${hours(previous.lightHours)} to ${hours(d.lightHours)} at ${d.ageDays} days, during rearing, before the step-up (${stepUpAge / 7} weeks)`,
      evidence,
    };
  const week = days.filter((w) => w.date < d.date && i.daysBetween(w.date, d.date) <= 7);
  const lowest = Math.min(...week.map((w) => w.lightHours));
  const rise = d.lightHours - lowest;
  const { stepUpMaxHoursPerWeek } = limitsOf(i);
  if (rise <= stepUpMaxHoursPerWeek) return null;
  return {
    status: 'warn',
    date: d.date,
    message: `${d.date}: light stepped up by ${hours(rise)} within 7 days (to ${hours(d.lightHours)}); the step-up is at most ${stepUpMaxHoursPerWeek} h a week`,
    evidence: { ...evidence, weekLowestHours: lowest, riseHours: rise },
  };
}

export function lightingRule(i: LightingInput): RuleResult {
  const days = [...i.days].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const findings: Finding[] = [];
  days.forEach((d, n) => {
    const previous = days[n - 1];
    for (const f of [darknessFinding(d, i), i.programme ? programmeFinding(d, i.programme) : null, previous ? stepFinding(d, previous, days, i) : null])
      if (f) findings.push(f);
  });
  const { minDarkHours, stepUpMaxHoursPerWeek } = limitsOf(i);
  const legal =
    i.birdType === 'broiler'
      ? `at least ${minDarkHours} h of darkness with ${BROILER_MIN_UNINTERRUPTED_DARK_HOURS} h uninterrupted from day ${BROILER_DARK_FROM_AGE_DAYS}`
      : i.birdType === 'layer'
        ? `an uninterrupted dark period of about ${LAYER_INDICATIVE_DARK_HOURS} h from laying maturity`
        : 'no legal dark period for breeders';
  const programme = i.programme ? `, the ${i.programme.id} programme` : '';
  const pass = days.length
    ? `${days.length} day(s) with a photoperiod recorded: ${legal}${programme}, step-ups of at most ${stepUpMaxHoursPerWeek} h a week`
    : 'No photoperiod recorded (lightHours): nothing to check';
  const fails = findings.filter((f) => f.status === 'fail').length;
  const summary = `${findings.length} finding(s) over ${days.length} day(s) with a photoperiod recorded${fails ? `, ${fails} short of the legal darkness` : ''}`;
  const source = i.programme ? `${RULES.lighting.source}; programme: ${i.programme.source}` : RULES.lighting.source;
  return result('lighting', findings, pass, summary, source);
}
