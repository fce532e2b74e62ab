/**
 * Recommendations the system proposes from a cycle's analytics, pure: each rule reads the cycle KPIs,
 * the breed comparison and the threshold breaches and, when it fires, proposes what to do with the
 * evidence that triggered it. A rule proposes at most once per cycle (the service keeps a guard item).
 */
import type { AnalyticsSections } from '../../schemas/analytics-config.js';
import type { ThresholdBreach } from './analytics/threshold-breaches.js';
import type { BreedComparison, ComparisonDay } from './analytics/comparison.js';
import type { CycleKpis } from './analytics/kpis/types.js';
import { round } from './weights.js';
import { DAY_MS, isoDate } from '../platform/calendar.js';

export interface Evidence {
  metric: string;
  value: number | null;
  unit: string;
  reference: number | null;
  note: string;
}

export interface Proposal {
  rule: string;
  category: 'feed' | 'water' | 'health' | 'environment' | 'growth' | 'production' | 'welfare' | 'cost' | 'other';
  priority: 'low' | 'medium' | 'high';
  description: string;
  expectedBenefit: string;
  evidence: Evidence[];
}

export interface ProposalInputs {
  kpis: CycleKpis;
  comparison: BreedComparison;
  breaches: readonly ThresholdBreach[];
  config: AnalyticsSections;
  /** The last date the proposals look at (recent breaches: this date and the 6 days before). */
  asOf: string;
}

type Rule = { id: string; propose: (i: ProposalInputs) => Omit<Proposal, 'rule'> | null };

const lastWith = (days: readonly ComparisonDay[], pick: (d: ComparisonDay) => number | null) => [...days].reverse().find((d) => pick(d) !== null);
const recent = (i: ProposalInputs, metric: string) => {
  const from = isoDate(Date.parse(i.asOf) - 6 * DAY_MS);
  return i.breaches.filter((a) => a.metric === metric && a.date >= from && a.date <= i.asOf);
};

export const RULES: readonly Rule[] = [
  {
    id: 'fcr_above_standard',
    propose: (i) => {
      const day = lastWith(i.comparison.days, (d) => d.cumulativeFcr.deviationPct);
      const dev = day?.cumulativeFcr.deviationPct ?? null;
      if (!day || dev === null || dev <= i.config.thresholds.fcrAboveStandardPct) return null;
      const { actual, standard } = day.cumulativeFcr;
      const liveKg = i.kpis.liveWeightKg.value;
      const feedPrice = i.config.pricing.feedPerKg;
      const saving = liveKg !== null && actual !== null && standard !== null ? round((actual - standard) * liveKg * feedPrice, 0) : null;
      return {
        category: 'feed',
        priority: dev >= 2 * i.config.thresholds.fcrAboveStandardPct ? 'high' : 'medium',
        description: `FCR ${actual} at ${day.ageDays} days is ${dev} % above the ${i.comparison.standard?.name ?? 'breed'} standard ${standard}. Check feed spillage and feeder height, feed form and quality (a delivery test), water supply and house temperature.`,
        expectedBenefit:
          saving !== null
            ? `Reaching the standard FCR saves about ${saving} ${i.config.pricing.currency} of feed at the current live weight`
            : 'Less feed per kg of live weight',
        evidence: [
          {
            metric: 'cumulativeFcr',
            value: actual,
            unit: 'kg/kg',
            reference: standard,
            note: `${dev} % above standard on ${day.date} (limit ${i.config.thresholds.fcrAboveStandardPct} %)`,
          },
        ],
      };
    },
  },
  {
    id: 'weight_below_standard',
    propose: (i) => {
      const day = lastWith(i.comparison.days, (d) => d.bodyWeight.deviationPct);
      const dev = day?.bodyWeight.deviationPct ?? null;
      if (!day || dev === null || dev >= -i.config.thresholds.weightBelowStandardPct) return null;
      return {
        category: 'growth',
        priority: dev <= -2 * i.config.thresholds.weightBelowStandardPct ? 'high' : 'medium',
        description: `Body weight ${day.bodyWeight.actual} g at ${day.ageDays} days is ${-dev} % below the standard ${day.bodyWeight.standard} g. Check feed and water access (feeder and drinker space per bird), lighting programme, brooding temperature and health.`,
        expectedBenefit: 'Birds back on the growth curve reach the target weight on time',
        evidence: [
          {
            metric: 'bodyWeight',
            value: day.bodyWeight.actual,
            unit: 'g',
            reference: day.bodyWeight.standard,
            note: `${dev} % vs standard on ${day.date} (limit −${i.config.thresholds.weightBelowStandardPct} %)`,
          },
        ],
      };
    },
  },
  {
    id: 'water_feed_ratio_out_of_range',
    propose: (i) => {
      const ratio = i.kpis.waterFeedRatio.value;
      const { waterFeedRatioMin: min, waterFeedRatioMax: max } = i.config.thresholds;
      if (ratio === null || (ratio >= min && ratio <= max)) return null;
      const high = ratio > max;
      return {
        category: 'water',
        priority: 'medium',
        description: high
          ? `Water:feed ratio ${ratio} is above ${max}: check for leaking drinkers, heat stress and gut health (wet litter), and that all feed used was recorded.`
          : `Water:feed ratio ${ratio} is below ${min}: check drinker lines (pressure, blocked nipples), water quality and that all water used was recorded.`,
        expectedBenefit: 'Normal water intake (1.6–2.0 l per kg of feed) supports feed intake and litter quality',
        evidence: [{ metric: 'waterFeedRatio', value: ratio, unit: 'l/kg', reference: high ? max : min, note: `cycle ratio outside ${min}–${max}` }],
      };
    },
  },
  {
    id: 'mortality_above_limit',
    propose: (i) => {
      const alarms = [...recent(i, 'dailyMortality'), ...recent(i, 'cumulativeMortality')];
      if (alarms.length === 0) return null;
      const critical = alarms.some((a) => a.severity === 'critical');
      return {
        category: 'health',
        priority: critical ? 'high' : 'medium',
        description: `Mortality broke its alarm on ${alarms.length} occasion(s) in the last 7 days. Have the veterinarian examine fresh dead birds (post-mortem), check the causes recorded and the house environment.`,
        expectedBenefit: 'Early diagnosis limits losses; every point of mortality saved is about 1 % more birds sold',
        evidence: alarms.slice(0, 5).map((a) => ({ metric: a.metric, value: a.value, unit: a.unit, reference: a.threshold, note: `${a.date}: ${a.message}` })),
      };
    },
  },
  {
    id: 'low_uniformity',
    propose: (i) => {
      const u = i.kpis.uniformityPct.value;
      if (u === null || u >= i.config.thresholds.uniformityMinPct) return null;
      return {
        category: 'growth',
        priority: 'medium',
        description: `Uniformity ${u} % (weighing of ${i.kpis.uniformityPct.date}) is below ${i.config.thresholds.uniformityMinPct} %. Check feeder and drinker space and feed distribution; consider grading light birds into a separate pen.`,
        expectedBenefit: 'A uniform flock converts feed better and meets the processor’s weight band',
        evidence: [
          { metric: 'uniformityPct', value: u, unit: '%', reference: i.config.thresholds.uniformityMinPct, note: 'share of birds within ±10 % of the mean' },
        ],
      };
    },
  },
  {
    id: 'stocking_density_high',
    propose: (i) => {
      const d = i.kpis.stockingDensityKgPerM2.value;
      const limit = i.config.thresholds.broilerMaxKgPerM2;
      if (d === null || i.kpis.birdType !== 'broiler' || d <= limit) return null;
      return {
        category: 'welfare',
        priority: 'high',
        description: `Stocking density ${d} kg/m² is above ${limit} kg/m² (EU 2007/43/EC). Thin the flock (partial depletion) or plan the harvest date.`,
        expectedBenefit: 'Compliance, better welfare, litter and air quality',
        evidence: [{ metric: 'stockingDensityKgPerM2', value: d, unit: 'kg/m²', reference: limit, note: 'live weight ÷ usable floor area' }],
      };
    },
  },
  {
    id: 'water_ph_out_of_range',
    propose: (i) => {
      const readings = recent(i, 'waterPh');
      if (readings.length === 0) return null;
      return {
        category: 'water',
        priority: readings.some((a) => a.severity === 'critical') ? 'high' : 'medium',
        description: `Drinking water pH was outside ${i.config.thresholds.waterPhMin}–${i.config.thresholds.waterPhMax} on ${readings.length} day(s) this week. Check the acidifier or chlorine dosing and the source water.`,
        expectedBenefit: 'Water in range keeps intake, vaccines and medication in water effective',
        evidence: readings.slice(0, 5).map((a) => ({ metric: 'waterPh', value: a.value, unit: 'pH', reference: a.threshold, note: `${a.date}: ${a.message}` })),
      };
    },
  },
  {
    id: 'hen_day_drop',
    propose: (i) => {
      const drops = recent(i, 'henDayDrop');
      if (drops.length === 0) return null;
      const last = drops[drops.length - 1]!;
      return {
        category: 'production',
        priority: 'high',
        description: `Hen-day production fell ${last.value} points within a week. Check water first (supply, intake), then feed, light programme and health; call the veterinarian.`,
        expectedBenefit: 'A drop caught in its first week is usually recovered',
        evidence: drops.slice(-3).map((a) => ({ metric: 'henDayDrop', value: a.value, unit: a.unit, reference: a.threshold, note: `${a.date}: ${a.message}` })),
      };
    },
  },
  {
    id: 'cracked_eggs_high',
    propose: (i) => {
      const days = recent(i, 'crackedEggs');
      if (days.length < 2) return null;
      return {
        category: 'production',
        priority: 'medium',
        description: `Cracked eggs were above ${i.config.thresholds.crackedEggsMaxPct} % on ${days.length} days this week. Check egg collection frequency and belts, calcium and vitamin D3 in the feed, and the age of the flock.`,
        expectedBenefit: 'More saleable eggs per hen',
        evidence: days.slice(0, 5).map((a) => ({ metric: 'crackedPct', value: a.value, unit: '%', reference: a.threshold, note: a.date })),
      };
    },
  },
];

export const RULE_IDS = RULES.map((r) => r.id);

export function proposals(inputs: ProposalInputs): Proposal[] {
  return RULES.flatMap((r) => {
    const p = r.propose(inputs);
    return p ? [{ rule: r.id, ...p }] : [];
  });
}
