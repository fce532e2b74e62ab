/** The answer of the anomalies read of analytics V2: threshold anomalies and statistical detections. */
import { Type } from '@sinclair/typebox';
import { SignificanceDto, ThresholdsSection } from './analytics-config.js';
import { StringEnum, Success } from './common.js';
import { ANOMALY_METRICS, DETECTORS, RULE_SEVERITIES } from './vocabulary.js';
import { CalendarDate } from './flocks.js';
import { AnalyticsCycleHeader } from './analytics-common.js';

export const AnomalyDto = Type.Object({
  date: CalendarDate,
  metric: StringEnum(ANOMALY_METRICS),
  value: Type.Number({ description: 'The figure that broke the rule, in `unit`' }),
  threshold: Type.Number({ description: 'The limit it broke, in `unit`' }),
  unit: Type.String(),
  severity: StringEnum(['warning', 'critical'] as const),
  message: Type.String(),
  evidence: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String(), Type.Null()]), { description: 'The figures that triggered it' }),
});
export const ThresholdsDto = Type.Object(
  { ...Type.Required(ThresholdsSection).properties, significance: SignificanceDto },
  { $id: 'Thresholds', description: 'The thresholds section in force' },
);
export const DetectionDto = Type.Object(
  {
    metric: Type.String({ description: 'waterPctOfExpected, feedGramsPerBird, dailyMortalityPct or bodyWeightVsStandard' }),
    bucket: Type.String({ description: 'The day judged' }),
    detector: StringEnum(DETECTORS, { description: 'robust_z (Iglewicz & Hoaglin), ewma (Roberts) or cusum (Page)' }),
    parameters: Type.Record(Type.String(), Type.Number(), { description: 'The detector’s settings (threshold, lambda, L, k, h, baselineDays, …)' }),
    observed: Type.Number(),
    expected: Type.Number({ description: 'The flock’s own age-matched baseline' }),
    deviation: Type.Number({ description: 'observed − expected' }),
    score: Type.Number({ description: 'Robust z, EWMA z in σ, or the CUSUM sum in σ (signed)' }),
    direction: StringEnum(['up', 'down'] as const),
    severity: StringEnum(RULE_SEVERITIES, { description: 'warning past the detector’s limit, critical past twice that' }),
    window: Type.Object({ from: Type.String(), to: Type.String() }, { description: 'The baseline and the judged day' }),
    startedOn: Type.String({
      format: 'date',
      description:
        'The day the change began: the CUSUM change point of its episode (the consecutive days detected in this direction by any detector), the same for every detection of the episode and as `startedOn` of the stored anomaly (docs/analytics.md, "When an anomaly started")',
    }),
    evidence: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String(), Type.Null()])),
    message: Type.String(),
  },
  { description: 'A statistical detection: the same code as the anomalies the detectors store under /api/v1/anomalies (source detector)' },
);
export const AnomaliesResponse = Success(
  Type.Object({
    cycle: AnalyticsCycleHeader,
    thresholds: ThresholdsDto,
    anomalies: Type.Array(AnomalyDto),
    detections: Type.Array(DetectionDto, { description: 'Statistical detectors over the flock’s own age-matched history, by day then metric' }),
  }),
);
