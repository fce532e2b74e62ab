/**
 * The analytics charts: weight vs breed standard, daily mortality, FCR vs
 * standard, built from the KPI series and the breed comparison and drawn by ./svg.ts.
 */
import type { BreedComparison } from '../../domain/analytics/comparison.js';
import type { DailyKpis } from '../../domain/analytics/kpis/types.js';
import { renderChart, type ChartSpec } from './svg.js';

export type ChartKind = 'weight' | 'mortality' | 'fcr';

interface ChartContext {
  flockName: string;
  breed: string | null;
  series: readonly DailyKpis[];
  comparison: BreedComparison;
}

const standardName = (c: BreedComparison) => (c.standard ? `${c.standard.name} standard` : 'no breed standard');

function weightChart(ctx: ChartContext): ChartSpec {
  const days = ctx.comparison.days;
  return {
    title: `Body weight vs standard: ${ctx.flockName}`,
    subtitle: ctx.comparison.standard ? `${standardName(ctx.comparison)} (${ctx.comparison.interpolation})` : ctx.comparison.reason,
    xLabel: 'Age (days)',
    yLabel: 'Body weight (g)',
    series: [
      { name: 'Weighed', points: days.map((d) => ({ x: d.ageDays, y: d.bodyWeight.actual })) },
      { name: standardName(ctx.comparison), dashed: true, points: days.map((d) => ({ x: d.ageDays, y: d.bodyWeight.standard })) },
    ],
  };
}

function mortalityChart(ctx: ChartContext): ChartSpec {
  return {
    title: `Mortality: ${ctx.flockName}`,
    xLabel: 'Age (days)',
    yLabel: 'Mortality (%)',
    series: [
      { name: 'Daily mortality %', kind: 'bar', points: ctx.series.map((d) => ({ x: d.ageDays, y: d.dailyMortalityPct.value })) },
      { name: 'Cumulative mortality %', points: ctx.series.map((d) => ({ x: d.ageDays, y: d.cumulativeMortalityPct.value })) },
    ],
  };
}

function fcrChart(ctx: ChartContext): ChartSpec {
  const days = ctx.comparison.days;
  return {
    title: `Feed conversion vs standard: ${ctx.flockName}`,
    subtitle: ctx.comparison.standard ? standardName(ctx.comparison) : ctx.comparison.reason,
    xLabel: 'Age (days)',
    yLabel: 'Cumulative FCR (kg feed / kg live weight)',
    series: [
      { name: 'FCR', points: days.map((d) => ({ x: d.ageDays, y: d.cumulativeFcr.actual })) },
      { name: standardName(ctx.comparison), dashed: true, points: days.map((d) => ({ x: d.ageDays, y: d.cumulativeFcr.standard })) },
    ],
  };
}

const CHARTS: Record<ChartKind, (ctx: ChartContext) => ChartSpec> = { weight: weightChart, mortality: mortalityChart, fcr: fcrChart };

export const analyticsChart = (kind: ChartKind, ctx: ChartContext): string => renderChart(CHARTS[kind](ctx));
