/**
 * The lighting rule without I/O: the broilers' legal darkness (6 h, 4 h of it uninterrupted, from day 7 until
 * 3 days before slaughter), the laying hens' indicative third of the day, the Hy-Line Brown rearing
 * programme, and the layers' step-up; and the form's dark period within the day's darkness.
 */
import { describe, expect, it } from 'vitest';
import {
  cycleProgramme,
  HY_LINE_BROWN_LIGHTING,
  lightingProgrammeOf,
  lightingRule,
  type LightingInput,
  type LitDay,
} from '../../shared/domain/compliance/lighting.js';
import { formProblems } from '../../shared/domain/flocks/daily-records.js';
import { addDays, daysBetween } from '../../shared/platform/calendar.js';

const HATCH = '2026-01-01';
const lit = (ageDays: number, lightHours: number, longestDarkHours: number | null = null): LitDay => ({
  date: addDays(HATCH, ageDays),
  ageDays,
  lightHours,
  longestDarkHours,
});
const input = (over: Partial<LightingInput>): LightingInput => ({
  birdType: 'broiler',
  days: [],
  programme: null,
  layingFrom: null,
  slaughterOn: null,
  daysBetween,
  ...over,
});

describe('lightingRule: broilers (2007/43/EC, Annex I, point 6)', () => {
  it('fails a day with 3 h of darkness, and a day whose longest dark period is under 4 h', () => {
    const r = lightingRule(input({ days: [lit(20, 21), lit(21, 18, 3)] }));
    expect(r.rule).toBe('lighting');
    expect(r.status).toBe('fail');
    expect(r.findings.map((f) => [f.date, f.status])).toEqual([
      [addDays(HATCH, 20), 'fail'],
      [addDays(HATCH, 21), 'fail'],
    ]);
    expect(r.findings[0]!.message).toMatch(/3 h of darkness \(at least 6 h\)/);
    expect(r.findings[1]!.message).toMatch(/longest uninterrupted dark period of 3 h \(at least 4 h\)/);
    expect(r.findings[1]!.evidence).toMatchObject({ lightHours: 18, darkHours: 6, longestDarkHours: 3 });
  });

  it('passes 6 h with a 4 h uninterrupted block, and one dark period of 6 h when none is recorded', () => {
    const r = lightingRule(input({ days: [lit(20, 18, 4), lit(21, 18)] }));
    expect(r.status).toBe('pass');
    expect(r.summary).toMatch(/^2 day\(s\) with a photoperiod recorded/);
  });

  it('does not judge the first 7 days nor the last 3 before slaughter', () => {
    const slaughterOn = addDays(HATCH, 40);
    const r = lightingRule(input({ days: [lit(6, 23), lit(7, 23), lit(37, 23), lit(38, 24)], slaughterOn }));
    expect(r.findings.map((f) => f.date)).toEqual([addDays(HATCH, 7), addDays(HATCH, 37)]);
  });

  it('judges the darkness against the configured minimum (thresholds.minDarkHours), the uninterrupted 4 h unchanged', () => {
    const days = [lit(20, 17), lit(21, 16, 3)];
    expect(lightingRule(input({ days })).findings.map((f) => f.date)).toEqual([addDays(HATCH, 21)]);
    const r = lightingRule(input({ days, limits: { minDarkHours: 8, stepUpMaxHoursPerWeek: 1 } }));
    expect(r.findings.map((f) => f.message)).toEqual([
      expect.stringMatching(/7 h of darkness \(at least 8 h\)$/),
      expect.stringMatching(/a longest uninterrupted dark period of 3 h \(at least 4 h\)$/),
    ]);
    expect(r.summary).toBe('2 finding(s) over 2 day(s) with a photoperiod recorded, 2 short of the legal darkness');
  });

  it('passes with nothing recorded', () => {
    expect(lightingRule(input({}))).toMatchObject({ status: 'pass', summary: 'No photoperiod recorded (lightHours): nothing to check' });
  });
});

describe('lightingRule: layers', () => {
  const layer = (days: LitDay[], layingFrom: string | null = addDays(HATCH, 126)) =>
    lightingRule(input({ birdType: 'layer', days, layingFrom, programme: HY_LINE_BROWN_LIGHTING }));

  it('warns on a step-up of 2 h within a week, not on 1 h', () => {
    const r = layer([lit(140, 13), lit(147, 14), lit(154, 16)]);
    expect(r.status).toBe('warn');
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]).toMatchObject({ date: addDays(HATCH, 154), status: 'warn' });
    expect(r.findings[0]!.message).toMatch(/stepped up by 2 h within 7 days \(to 16 h\)/);
  });

  it('the step-up bound is the configured one (thresholds.lightStepUpMaxHoursPerWeek)', () => {
    const days = [lit(140, 13), lit(147, 14), lit(154, 16)];
    const at = (stepUpMaxHoursPerWeek: number) =>
      lightingRule(input({ birdType: 'layer', days, layingFrom: addDays(HATCH, 126), limits: { minDarkHours: 6, stepUpMaxHoursPerWeek } }));
    expect(at(2)).toMatchObject({ status: 'pass', findings: [] });
    expect(at(2).summary).toMatch(/step-ups of at most 2 h a week$/);
    expect(at(0.5).findings.map((f) => f.evidence.riseHours)).toEqual([1, 2]);
  });

  it('warns on light raised during rearing before the step-up age (17 weeks)', () => {
    const r = layer([lit(60, 10), lit(61, 10.5)]);
    expect(r.findings.map((f) => f.message)).toEqual([
      expect.stringMatching(/raised from 10 h to 10.5 h at 61 days, during rearing, before the step-up \(17 weeks\)/),
    ]);
  });

  it('warns off the Hy-Line Brown rearing programme (9–10 h from 10 weeks) by more than 0.5 h', () => {
    const r = layer([lit(80, 10.5), lit(81, 10.5), lit(90, 8.25)]);
    expect(r.findings.map((f) => [f.evidence.ageDays, f.status])).toEqual([[90, 'warn']]);
    expect(r.findings[0]!.message).toMatch(/8.25 h of light at 90 days, the hy-line-brown programme plans 9–10 h/);
    expect(r.source).toMatch(/Red Book/);
  });

  it('warns under the indicative third of the day in lay (1999/74/EC, Annex, point 3), not before laying maturity', () => {
    const r = layer([lit(120, 16, 6), lit(130, 16, 6), lit(131, 16)]);
    expect(r.findings.map((f) => f.date)).toEqual([addDays(HATCH, 130)]);
    expect(r.findings[0]!.message).toMatch(/6 h, under the indicative third of the day \(8 h\)/);
  });

  it('the programme is Hy-Line Brown’s only', () => {
    expect(lightingProgrammeOf('hy-line-brown')).toBe(HY_LINE_BROWN_LIGHTING);
    expect(lightingProgrammeOf('lohmann-brown-classic')).toBeNull();
    expect(lightingProgrammeOf(undefined)).toBeNull();
  });
});

describe('lightingRule: the cycle’s own programme', () => {
  it('warns on a day off its step by more than 0.5 h; each step holds until the next', () => {
    const programme = cycleProgramme([
      { fromAgeDays: 119, lightHours: 12 },
      { fromAgeDays: 126, lightHours: 13 },
    ]);
    const r = lightingRule(input({ birdType: 'layer', programme, days: [lit(120, 12.5), lit(127, 13), lit(200, 12)] }));
    expect(r.findings.map((f) => [f.evidence.ageDays, f.message])).toEqual([
      [200, expect.stringMatching(/12 h of light at 200 days, the cycle’s programme plans 13 h/)],
    ]);
    expect(cycleProgramme([])).toBeNull();
    expect(cycleProgramme(null)).toBeNull();
  });
});

describe('formProblems: the dark period', () => {
  it('refuses a longest dark period above 24 − lightHours, naming the field', () => {
    expect(formProblems({ lightHours: 16, longestDarkHours: 9 })).toEqual([{ field: 'longestDarkHours', message: 'must not exceed 24 − lightHours (8)' }]);
    expect(formProblems({ lightHours: 16, longestDarkHours: 8 })).toEqual([]);
    expect(formProblems({ lightHours: 16 })).toEqual([]);
  });
});
