/**
 * Practical significance (pure): a statistical detection says a day is unusual for the flock; it opens an
 * anomaly only when the figure also crosses the practical threshold of the flock's bird type
 * (`thresholds.significance` of the analytics configuration; defaults and sources: docs/domain.md,
 * "Practical significance of the detectors"). Seven dead hens of 27,700 (0.03 %) may be four times a
 * quiet baseline of 0.01 %, yet no layer farmer acts on it: below the layers' 0.05 % it opens nothing.
 *
 * - daily mortality: the day's deaths ÷ birds present above `dailyMortalityPct`;
 * - water, feed per bird, body weight: the day's figure at least `…ChangePct` % above or below what the
 *   baseline expects for that day (|observed − expected| ÷ expected × 100).
 *
 * Severity respects the practical bands as well: critical only when the statistics say critical AND the
 * figure is at least `criticalFactor` times its practical threshold; otherwise a warning.
 */
import type { SignificanceConfig } from '../../../schemas/analytics-config.js';
import type { Detection } from './engine.js';

type BirdSignificance = SignificanceConfig['layer'];

/** The practical threshold of each daily metric, and how a detection's figure is compared with it. */
interface Practical {
  field: keyof BirdSignificance;
  /** The detection's figure in the threshold's unit. */
  figure: (d: Detection) => number | null;
  /** A level must be above its threshold; a change at least its threshold. */
  kind: 'level' | 'change';
  what: string;
}
const PRACTICAL: Record<string, Practical> = {
  dailyMortalityPct: { field: 'dailyMortalityPct', figure: (d) => d.observed, kind: 'level', what: 'daily mortality' },
  waterPctOfExpected: { field: 'waterChangePct', figure: (d) => changePct(d), kind: 'change', what: 'water intake' },
  feedGramsPerBird: { field: 'feedChangePct', figure: (d) => changePct(d), kind: 'change', what: 'feed per bird' },
  bodyWeightVsStandard: { field: 'bodyWeightChangePct', figure: (d) => changePct(d), kind: 'change', what: 'body weight' },
};

/** How far the day is from what its baseline expects, % of the expectation (null without a positive expectation). */
function changePct(d: Detection): number | null {
  return d.expected > 0 ? (Math.abs(d.observed - d.expected) / d.expected) * 100 : null;
}

const r = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits + 0;

/** The practical thresholds of a bird type (breeders and unknown types: their own entry, else the layers'). */
export function significanceOf(config: SignificanceConfig, birdType: string): BirdSignificance {
  return birdType === 'broiler' ? config.broiler : birdType === 'breeder' ? config.breeder : config.layer;
}

/**
 * The detections that also cross their practical threshold, each with its severity held to the practical
 * band and the threshold in its parameters and evidence. A metric without a practical threshold (none of
 * the daily ones) passes unchanged.
 */
export function practicallySignificant(detections: readonly Detection[], birdType: string, config: SignificanceConfig): Detection[] {
  const bird = significanceOf(config, birdType);
  return detections.flatMap((d): Detection[] => {
    const p = PRACTICAL[d.metric];
    if (!p) return [d];
    const threshold = bird[p.field];
    const figure = p.figure(d);
    if (figure === null || !(p.kind === 'level' ? figure > threshold : figure >= threshold)) return [];
    const criticalBand = threshold * config.criticalFactor;
    const rule =
      p.kind === 'level'
        ? `${p.what} above ${threshold} % for ${birdType}s (critical from ${r(criticalBand, 3)} %)`
        : `${p.what} at least ${threshold} % off its usual level for ${birdType}s (critical from ${r(criticalBand, 3)} %)`;
    const severity = d.severity === 'critical' && figure >= criticalBand ? 'critical' : 'warning';
    return [
      {
        ...d,
        severity,
        parameters: { ...d.parameters, practicalThreshold: threshold, criticalFactor: config.criticalFactor },
        evidence: {
          ...d.evidence,
          practicalFigure: r(figure, 3),
          practicalThreshold: threshold,
          practicalUnit: p.kind === 'level' ? '%' : '% off usual',
          practical: rule,
        },
      },
    ];
  });
}
