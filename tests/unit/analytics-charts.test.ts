/**
 * The SVG charts of the daily and breed analytics draw each series as one line through the days that have
 * a value: a flock weighed once a week has a value on one day in seven, and its weighings are joined into
 * one line (a marker on each), not left as lone points. Read from the SVG text as the API serves it.
 */
import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { standardFeedIntake, standardWeightGrams } from '../../shared/domain/analytics/breed-standards.js';
import { compareWithStandard } from '../../shared/domain/analytics/comparison.js';
import { emptyDay, type CycleInputs, type DayTotals } from '../../shared/domain/analytics/inputs.js';
import { dailySeries } from '../../shared/domain/analytics/kpis/daily.js';
import { ROSS_308 } from '../../shared/domain/analytics/standards/ross-308.js';
import { analyticsChart, type ChartKind } from '../../shared/presentation/charts/analytics.js';
import { renderChart } from '../../shared/presentation/charts/svg.js';
import { rossBroilerCycle } from '../support/cycle-facts.js';
import { drawnLines, markers, type DrawnLine, type Vertex } from '../support/svg-chart.js';

const B0 = '2026-06-01';
const dateOf = (n: number) => new Date(Date.parse(B0) + n * 86_400_000).toISOString().slice(0, 10);
const BIRDS = 20_000;
const WEIGHED_ON = [7, 14, 21, 28];
/** The chart's series colours, in series order (shared/presentation/charts/svg.ts). */
const FIRST = '#1b6ca8';
const SECOND = '#d1495b';

/** A Ross 308 house over 30 days, fed on the breed curve, 8 dead a day, weighed weekly at 90 % of the curve. */
function weeklyWeighedFlock(): CycleInputs {
  const days: DayTotals[] = Array.from({ length: 31 }, (_, n) => {
    const feedKg = n === 0 ? 0 : (standardFeedIntake(ROSS_308, n)!.grams * (BIRDS - 8 * (n - 1))) / 1000;
    return { ...emptyDay(dateOf(n)), placed: n === 0 ? BIRDS : 0, deaths: n === 0 ? 0 : 8, feedConsumedKg: feedKg };
  });
  return {
    cycle: rossBroilerCycle(B0),
    days,
    weighings: WEIGHED_ON.map((n) => ({
      date: dateOf(n),
      grams: Math.round(standardWeightGrams(ROSS_308, n)!.grams * 0.9),
      method: 'manual_sample' as const,
      confidence: 'high' as const,
      sampleSize: 100,
      cv: null,
      uniformityPct: null,
    })),
    asOf: dateOf(30),
  };
}

function chart(kind: ChartKind): string {
  const inputs = weeklyWeighedFlock();
  const config = structuredClone(ANALYTICS_DEFAULTS);
  const series = dailySeries(inputs, config);
  return analyticsChart(kind, { flockName: 'House 1', breed: 'Ross 308', series, comparison: compareWithStandard(inputs, config, series) });
}

const lineOf = (svg: string, colour: string): DrawnLine => {
  const lines = drawnLines(svg).filter((l) => l.colour === colour);
  expect(lines, `lines drawn in ${colour}`).toHaveLength(1);
  return lines[0]!;
};

/** One continuous polyline (a single `M`, then an `L` per further vertex) through exactly these points. */
function expectOneLineThrough(line: DrawnLine, points: Vertex[]): void {
  expect(points.length, 'points to join').toBeGreaterThanOrEqual(2);
  expect(line.d, 'one subpath, not closed').toMatch(/^M[^MZ]+$/);
  expect(line.d.split('L')).toHaveLength(points.length);
  const [vertices] = line.subpaths;
  expect(vertices).toHaveLength(points.length);
  vertices!.forEach((v, i) => {
    expect(v.x, `vertex ${i} x`).toBeCloseTo(points[i]!.x, 1);
    expect(v.y, `vertex ${i} y`).toBeCloseTo(points[i]!.y, 1);
  });
}

describe('analytics SVG charts', () => {
  it('weight vs standard: the weekly weighings are one line through their markers, the standard one dashed line', () => {
    const svg = chart('weight');
    const weighed = markers(svg, FIRST);
    expect(weighed, 'a marker per weighing').toHaveLength(WEIGHED_ON.length);
    expectOneLineThrough(lineOf(svg, FIRST), weighed);
    const standard = lineOf(svg, SECOND);
    expect(standard.dashed).toBe(true);
    expect(standard.subpaths).toHaveLength(1);
    // the standard has a value on every day of the series (day 0 to day 30)
    expect(standard.subpaths[0]).toHaveLength(31);
  });

  it('FCR vs standard: the FCR of the weighing days is one line through their markers', () => {
    const svg = chart('fcr');
    const fcr = markers(svg, FIRST);
    expect(fcr).toHaveLength(WEIGHED_ON.length);
    expectOneLineThrough(lineOf(svg, FIRST), fcr);
    expect(lineOf(svg, SECOND).subpaths).toHaveLength(1);
  });

  it('mortality: the cumulative mortality is one line through a marker per day, next to the daily bars', () => {
    const svg = chart('mortality');
    const cumulative = markers(svg, SECOND);
    expect(cumulative.length).toBeGreaterThanOrEqual(30);
    expectOneLineThrough(lineOf(svg, SECOND), cumulative);
    expect(svg.match(new RegExp(`<rect [^>]*fill="${FIRST}"`, 'g'))?.length, 'daily bars').toBeGreaterThanOrEqual(30);
  });

  it('joins values across days without one; a lone value is its marker only; no value at all says so', () => {
    const spec = (ys: (number | null)[]) => ({
      title: 't',
      xLabel: 'x',
      yLabel: 'y',
      series: [{ name: 's', points: ys.map((y, x) => ({ x, y })) }],
    });
    const gappy = renderChart(spec([null, 10, null, null, 30, Number.NaN, 20, null]));
    expectOneLineThrough(lineOf(gappy, FIRST), markers(gappy, FIRST));
    expect(markers(gappy, FIRST)).toHaveLength(3);

    const lone = renderChart(spec([null, null, 10, null]));
    expect(drawnLines(lone)).toEqual([]);
    expect(markers(lone, FIRST)).toHaveLength(1);

    const none = renderChart(spec([null, null]));
    expect(drawnLines(none)).toEqual([]);
    expect(none).toContain('No data yet');
  });
});
