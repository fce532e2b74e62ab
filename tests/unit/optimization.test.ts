import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { proposals, type ProposalInputs } from '../../shared/domain/optimization.js';
import type { CycleKpis } from '../../shared/domain/analytics/kpis/types.js';
import type { BreedComparison, ComparisonDay } from '../../shared/domain/analytics/comparison.js';

const fig = (value: number | null, unit = '') => ({ value, unit });
const metric = (actual: number | null, standard: number | null, deviationPct: number | null, unit: string) => ({
  actual,
  standard,
  deviationPct,
  unit,
  interpolated: false,
});
const kpis = (over: Partial<Record<string, unknown>> = {}) =>
  ({
    birdType: 'broiler',
    liveWeightKg: fig(10_000, 'kg'),
    waterFeedRatio: fig(1.8, 'l/kg'),
    uniformityPct: { ...fig(85, '%'), date: '2026-03-01' },
    stockingDensityKgPerM2: fig(30, 'kg/m²'),
    ...over,
  }) as unknown as CycleKpis;
const day = (fcr: [number, number, number] | null, weight: [number, number, number] | null): ComparisonDay => ({
  date: '2026-03-01',
  ageDays: 28,
  bodyWeight: weight ? metric(...weight, 'g') : metric(null, null, null, 'g'),
  cumulativeFcr: fcr ? metric(...fcr, 'kg/kg') : metric(null, null, null, 'kg/kg'),
  henDayPct: metric(null, null, null, '%'),
  dailyFeedIntake: metric(null, null, null, 'g/bird/day'),
  waterIntake: metric(null, null, null, 'ml/bird/day'),
  eggWeight: metric(null, null, null, 'g'),
  eggMass: metric(null, null, null, 'g/hen/day'),
  henHousedEggs: metric(null, null, null, 'eggs/hen'),
  livability: metric(null, null, null, '%'),
});
const inputs = (over: Partial<ProposalInputs> & { days?: ComparisonDay[] } = {}): ProposalInputs => ({
  kpis: kpis(),
  comparison: {
    breed: 'Ross 308',
    standard: { id: 'ross-308', name: 'Ross 308', status: 'official', edition: 2022, source: { publisher: '', document: '', transcription: '' } },
    interpolation: 'linear',
    days: over.days ?? [],
  } as BreedComparison,
  breaches: [],
  config: ANALYTICS_DEFAULTS,
  asOf: '2026-03-01',
  ...over,
});

describe('proposal rules', () => {
  it('a cycle on target proposes nothing', () => {
    expect(proposals(inputs({ days: [day([1.27, 1.269, 0.08], [1620, 1616, 0.25])] }))).toEqual([]);
  });

  it('FCR 13.1 % over the standard: a high-priority feed proposal with the saving at the current live weight', () => {
    // saving = (1.435 − 1.269) × 10,000 kg × 0.45 USD/kg = 747 USD
    const [p] = proposals(inputs({ days: [day([1.435, 1.269, 13.08], [1600, 1616, -0.99])] }));
    expect(p).toMatchObject({
      rule: 'fcr_above_standard',
      category: 'feed',
      priority: 'high',
      evidence: [{ metric: 'cumulativeFcr', value: 1.435, reference: 1.269 }],
    });
    expect(p!.expectedBenefit).toBe('Reaching the standard FCR saves about 747 USD of feed at the current live weight');
  });

  it('weight 12 % under the standard (medium), density over 33 kg/m² (high), ratio and uniformity out of range', () => {
    const found = proposals(
      inputs({
        days: [day(null, [880, 1000, -12])],
        kpis: kpis({ stockingDensityKgPerM2: fig(36.5, 'kg/m²'), waterFeedRatio: fig(2.4, 'l/kg'), uniformityPct: { ...fig(71, '%'), date: '2026-03-01' } }),
      }),
    );
    expect(found.map((p) => [p.rule, p.priority])).toEqual([
      ['weight_below_standard', 'medium'],
      ['water_feed_ratio_out_of_range', 'medium'],
      ['low_uniformity', 'medium'],
      ['stocking_density_high', 'high'],
    ]);
    expect(found[1]!.description).toMatch(/above 2/);
  });

  it('recent anomalies only: a mortality alarm older than 7 days proposes nothing, a recent critical one is high priority', () => {
    const alarm = (date: string, severity: 'warning' | 'critical') => ({
      date,
      metric: 'dailyMortality' as const,
      value: 1.2,
      threshold: 0.5,
      unit: '%',
      severity,
      message: 'm',
      evidence: {},
    });
    expect(proposals(inputs({ breaches: [alarm('2026-02-20', 'critical')] }))).toEqual([]);
    const [p] = proposals(inputs({ breaches: [alarm('2026-02-23', 'warning'), alarm('2026-02-28', 'critical')] }));
    expect(p).toMatchObject({ rule: 'mortality_above_limit', priority: 'high' });
    expect(p!.evidence).toHaveLength(2);
  });
});
