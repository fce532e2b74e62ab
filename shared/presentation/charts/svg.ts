/**
 * Server-side SVG charts (pure: data in, an SVG document out). d3-scale computes the axes and their
 * "nice" ticks, d3-shape the line paths: one line per series through the points that have a value (a day
 * without one is skipped, not a break), with a marker on each point of a solid series. The SVG is written
 * as text, so no DOM or canvas is needed in a Lambda. Used by the daily and breed analytics
 * (`Accept: image/svg+xml`).
 */
import { max, min } from 'd3-array';
import { scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';

export interface ChartPoint {
  x: number;
  y: number | null;
}

export interface ChartSeries {
  name: string;
  points: ChartPoint[];
  /** `line` (default) or `bar` (one bar per x). */
  kind?: 'line' | 'bar';
  dashed?: boolean;
}

export interface ChartSpec {
  title: string;
  subtitle?: string;
  xLabel: string;
  yLabel: string;
  series: ChartSeries[];
  width?: number;
  height?: number;
}

type KnownPoint = ChartPoint & { y: number };
const isKnown = (p: ChartPoint): p is KnownPoint => p.y !== null && Number.isFinite(p.y);

const COLOURS = ['#1b6ca8', '#d1495b', '#2e933c', '#edae49', '#6c4f9c'];
const MARGIN = { top: 56, right: 24, bottom: 64, left: 72 };

/** Text for SVG: markup characters escaped (titles carry user-entered names). */
export const escapeXml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

const num = (n: number) => String(Math.round(n * 100) / 100);

export function renderChart(spec: ChartSpec): string {
  const width = spec.width ?? 800;
  const height = spec.height ?? 420;
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const points = spec.series.flatMap((s) => s.points);
  const values = points.filter(isKnown).map((p) => p.y);
  const xs = points.map((p) => p.x);
  const hasBars = spec.series.some((s) => s.kind === 'bar');
  const xMin = min(xs) ?? 0;
  const xMax = max(xs) ?? 1;
  const x = scaleLinear()
    .domain([hasBars ? xMin - 0.5 : xMin, hasBars ? xMax + 0.5 : Math.max(xMax, xMin + 1)])
    .range([0, plotW]);
  const yTop = max(values) ?? 1;
  const y = scaleLinear()
    .domain([Math.min(0, min(values) ?? 0), yTop > 0 ? yTop : 1])
    .nice()
    .range([plotH, 0]);

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12" role="img" aria-label="${escapeXml(spec.title)}">`,
    `<title>${escapeXml(spec.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${MARGIN.left}" y="24" font-size="16" font-weight="bold">${escapeXml(spec.title)}</text>`,
  );
  if (spec.subtitle) parts.push(`<text x="${MARGIN.left}" y="42" fill="#555">${escapeXml(spec.subtitle)}</text>`);
  parts.push(`<g transform="translate(${MARGIN.left},${MARGIN.top})">`);

  // grid and axes
  for (const t of y.ticks(6)) {
    parts.push(
      `<line x1="0" x2="${plotW}" y1="${num(y(t))}" y2="${num(y(t))}" stroke="#e5e5e5"/>`,
      `<text x="-8" y="${num(y(t) + 4)}" text-anchor="end">${num(t)}</text>`,
    );
  }
  for (const t of x.ticks(10).filter(Number.isInteger)) {
    parts.push(
      `<line x1="${num(x(t))}" x2="${num(x(t))}" y1="${plotH}" y2="${plotH + 5}" stroke="#333"/>`,
      `<text x="${num(x(t))}" y="${plotH + 18}" text-anchor="middle">${t}</text>`,
    );
  }
  parts.push(`<line x1="0" x2="${plotW}" y1="${plotH}" y2="${plotH}" stroke="#333"/>`, `<line x1="0" x2="0" y1="0" y2="${plotH}" stroke="#333"/>`);
  parts.push(`<text x="${plotW / 2}" y="${plotH + 40}" text-anchor="middle">${escapeXml(spec.xLabel)}</text>`);
  parts.push(`<text transform="translate(-52,${plotH / 2}) rotate(-90)" text-anchor="middle">${escapeXml(spec.yLabel)}</text>`);

  // series
  const barWidth = Math.max(1, (plotW / Math.max(1, xMax - xMin + 1)) * 0.7);
  spec.series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    if (s.kind === 'bar') {
      for (const p of s.points) {
        if (!isKnown(p)) continue;
        const top = y(Math.max(0, p.y));
        parts.push(
          `<rect x="${num(x(p.x) - barWidth / 2)}" y="${num(top)}" width="${num(barWidth)}" height="${num(Math.max(0, y(0) - top))}" fill="${colour}"><title>${escapeXml(`${s.name}: ${p.y}`)}</title></rect>`,
        );
      }
      return;
    }
    // One line through the values there are: a day without a value (no weighing that day) is skipped,
    // not a break in the line, or a series measured on some days only would be a row of lone points.
    const known = s.points.filter(isKnown);
    const path = line<KnownPoint>()
      .x((p) => x(p.x))
      .y((p) => y(p.y))(known);
    // a single value is shown by its marker alone: a path through one point draws nothing
    if (path && known.length >= 2)
      parts.push(`<path d="${path}" fill="none" stroke="${colour}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    if (s.dashed) return;
    for (const p of known) {
      parts.push(`<circle cx="${num(x(p.x))}" cy="${num(y(p.y))}" r="3" fill="${colour}"><title>${escapeXml(`${s.name}: ${p.y}`)}</title></circle>`);
    }
  });
  parts.push('</g>');

  // legend
  spec.series.forEach((s, i) => {
    const lx = MARGIN.left + i * 190;
    const ly = height - 14;
    const colour = COLOURS[i % COLOURS.length]!;
    parts.push(
      `<line x1="${lx}" x2="${lx + 24}" y1="${ly - 4}" y2="${ly - 4}" stroke="${colour}" stroke-width="${s.kind === 'bar' ? 8 : 2}"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
      `<text x="${lx + 30}" y="${ly}">${escapeXml(s.name)}</text>`,
    );
  });
  if (values.length === 0) parts.push(`<text x="${width / 2}" y="${height / 2}" text-anchor="middle" fill="#777">No data yet</text>`);
  parts.push('</svg>');
  return parts.join('');
}
