import { Type, type Static } from '@sinclair/typebox';
import { ListFarmId, ListOf, pageQueryProperties, StringEnum, Success, Timestamp, Ulid, UlidOf } from './common.js';
import { CalendarDate } from './flocks.js';
import { ANOMALY_METRICS, BIRD_TYPES, CONFIDENCES, DEVICE_KINDS, DEVICE_STATUSES, SENSOR_METRICS } from './vocabulary.js';

/**
 * Predictive (`/api/v1/predictive`): what the hourly job (and `POST …/run`) computes per active cycle —
 * the weight forecast with its band, the harvest date and FCR, eggs for 8 weeks, feed needed and the
 * feed or silo run-out, a health risk score — and per device a failure risk; the job's runs and the
 * accuracy of past forecasts. These shapes are the stored records as well as the answers: the domain
 * (shared/domain/predictive) types its records as `Static` of the schemas below, so they cannot drift.
 */

// ---------------------------------------------------------------------------------------------------
// Vocabulary of this group

export const RISK_LEVELS = ['low', 'moderate', 'high', 'critical'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
export const RUN_TRIGGERS = ['schedule', 'manual'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];
/** What stands behind a harvest forecast: the cycle's planned age, or the age the target weight is reached. */
export const HARVEST_BASES = ['target_age', 'target_weight'] as const;
/** Where a target weight comes from: the cycle, or the configuration (broilers: ratios.correctedFcrReferenceGrams). */
export const TARGET_SOURCES = ['cycle', 'configuration'] as const;
export const FEED_NEED_METHODS = ['breed_fcr_curve', 'trailing_intake'] as const;
export const FEED_SOURCES = ['silo', 'farm_stock'] as const;
export const DEVICE_RISK_FACTORS = ['silent', 'gaps', 'flat_line', 'drift'] as const;
export type DeviceRiskFactor = (typeof DEVICE_RISK_FACTORS)[number];
const WEIGHT_METHODS_USED = ['breed_curve_scaled', 'breed_curve', 'linear_adg', 'none'] as const;
const PRODUCTION_METHODS = ['breed_curve_scaled', 'breed_curve', 'recent_flat', 'none'] as const;

const RecordId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const Num = Type.Union([Type.Number(), Type.Null()]);
const Int = Type.Integer();
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);
const NullableDate = Type.Union([CalendarDate, Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);
const Reason = Type.Union([Type.String(), Type.Null()], { description: 'Why a figure of this part is missing, or null' });
const Notes = Type.Array(Type.String(), { description: 'Assumptions the figures stand on' });
const KgByType = Type.Record(Type.String(), Type.Number(), { description: 'kg per feed type' });

// ---------------------------------------------------------------------------------------------------
// Requests

export const predictiveFlockParams = Type.Object({ flockId: UlidOf('Id of the flock') }, { additionalProperties: false, $id: 'PredictiveFlockParams' });
export type PredictiveFlockParams = Static<typeof predictiveFlockParams>;

export const predictiveFarmParams = Type.Object(
  { farmId: Type.String({ ...RecordId, description: 'Id of the farm' }) },
  { additionalProperties: false, $id: 'PredictiveFarmParams' },
);
export type PredictiveFarmParams = Static<typeof predictiveFarmParams>;

const FarmIdOptional = Type.Optional(Type.String({ ...RecordId, description: 'The farm (required when you see more than one)' }));

export const predictiveDevicesQuery = Type.Object(
  { farmId: ListFarmId('`houseId`'), houseId: Type.Optional(Type.String({ ...RecordId, description: 'Only the devices of this house' })) },
  { additionalProperties: false, $id: 'PredictiveDevicesQuery' },
);
export type PredictiveDevicesQuery = Static<typeof predictiveDevicesQuery>;

export const predictiveRunBody = Type.Object(
  {
    farmId: Type.Optional(Type.String({ ...RecordId, description: 'Recompute every active cycle and device of this farm' })),
    flockId: Type.Optional(Type.String({ pattern: Ulid.pattern, description: 'Recompute this flock’s active cycle (and the devices of its house)' })),
  },
  { additionalProperties: false, minProperties: 1, maxProperties: 1, $id: 'PredictiveRunBody', description: 'Exactly one of farmId and flockId' },
);
export type PredictiveRunBody = Static<typeof predictiveRunBody>;

export const predictiveRunsQuery = Type.Object({ farmId: FarmIdOptional, ...pageQueryProperties }, { additionalProperties: false, $id: 'PredictiveRunsQuery' });
export type PredictiveRunsQuery = Static<typeof predictiveRunsQuery>;

export const predictiveAccuracyQuery = Type.Object(
  {
    farmId: FarmIdOptional,
    flockId: Type.Optional(Type.String({ pattern: Ulid.pattern, description: 'Only this flock (its farm is then taken from it)' })),
    days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 365,
        default: 90,
        description: 'Forecasts made in the last N days (default 90) are scored against the weighings since',
      }),
    ),
  },
  { additionalProperties: false, $id: 'PredictiveAccuracyQuery' },
);
export type PredictiveAccuracyQuery = Static<typeof predictiveAccuracyQuery>;

// ---------------------------------------------------------------------------------------------------
// Records and answers

export const ForecastWindowDto = Type.Object(
  {
    from: CalendarDate,
    to: CalendarDate,
    days: Int,
    weighings: Type.Integer({ description: 'Weighing sessions up to `to`' }),
    lastWeighingDate: NullableDate,
  },
  { $id: 'ForecastWindow', description: 'The data a forecast used: the cycle’s days from `from` to `to` (asOf) and its weighings' },
);

export const WeightPointDto = Type.Object(
  {
    date: CalendarDate,
    ageDays: Int,
    grams: Type.Number({ description: 'Forecast mean body weight, g' }),
    low: Type.Number({ description: 'Lower end of the band, g' }),
    high: Type.Number({ description: 'Upper end of the band, g' }),
  },
  { $id: 'ForecastWeightPoint', description: 'A forecast body weight with its band (docs/data-model.md, “Predictive”)' },
);

export const RunOutDto = Type.Object(
  {
    source: StringEnum(FEED_SOURCES, { description: 'silo: the house’s silo load cells; farm_stock: the farm’s feed stock' }),
    stockKg: Type.Number(),
    dailyKg: Type.Number({ description: 'Trailing 3-day mean consumption the stock is divided by, kg/day' }),
    daysLeft: Num,
    date: Type.Union([CalendarDate, Type.Null()], { description: 'asOf + ⌊stock ÷ daily⌋ days' }),
    feedTypes: Type.Array(Type.String(), { description: 'Feed types the date is of (farm stock: the types this flock ate)' }),
    reason: Reason,
  },
  { $id: 'FeedRunOut' },
);

export const HealthFactorDto = Type.Object(
  {
    metric: StringEnum(ANOMALY_METRICS),
    severity: StringEnum(['warning', 'critical'] as const),
    occurrences: Type.Integer({ description: 'Days it broke its threshold in the window' }),
    lastDate: CalendarDate,
    contribution: Type.Number({ description: 'Its standalone score, 0–100' }),
    message: Type.String(),
  },
  { $id: 'HealthRiskFactor' },
);
export const HealthRiskDto = Type.Object(
  {
    score: Type.Integer({ minimum: 0, maximum: 100 }),
    level: StringEnum(RISK_LEVELS),
    window: Type.Object({ from: CalendarDate, to: CalendarDate }),
    factors: Type.Array(HealthFactorDto, { description: 'Strongest first' }),
  },
  { $id: 'HealthRisk', description: 'From the anomaly rules of the last 7 days, recent and critical ones weighing most' },
);

export const FlockForecastDto = Type.Object(
  {
    flockId: Ulid,
    flockName: Type.String(),
    farmId: Type.String(),
    houseId: NullableString,
    cycleId: Ulid,
    birdType: StringEnum(BIRD_TYPES),
    breed: NullableString,
    asOf: CalendarDate,
    ageDays: Int,
    computedAt: Timestamp,
    modelVersion: Type.String(),
    configVersion: Type.Integer({ description: 'Analytics configuration version used (0: defaults)' }),
    window: ForecastWindowDto,
    weight: Type.Object({
      method: StringEnum(WEIGHT_METHODS_USED),
      standard: NullableString,
      confidence: Type.Union([StringEnum(CONFIDENCES), Type.Null()]),
      fitRatio: Num,
      residualRmsPct: Num,
      points: Type.Array(WeightPointDto, { description: 'Weekly up to the harvest (at most 8 weeks), and the harvest itself' }),
      reason: Reason,
    }),
    harvest: Type.Object({
      basis: Type.Union([StringEnum(HARVEST_BASES), Type.Null()]),
      targetAgeDays: NullableInt,
      targetWeight: Type.Object({
        grams: Num,
        source: Type.Union([StringEnum(TARGET_SOURCES), Type.Null()]),
        reached: Type.Boolean({ description: 'A weighing already reached it' }),
        date: NullableDate,
        ageDays: NullableInt,
      }),
      date: NullableDate,
      ageDays: NullableInt,
      daysFromAsOf: NullableInt,
      weight: Type.Union([WeightPointDto, Type.Null()]),
      fcr: Type.Union([Type.Number(), Type.Null()], { description: 'Cumulative FCR forecast at the harvest date, kg/kg' }),
      reason: Reason,
    }),
    feed: Type.Object({
      window: Type.Object({ from: CalendarDate, to: CalendarDate }, { description: 'The trailing 3 days (asOf excluded)' }),
      dailyKg: Type.Number({ description: 'This cycle’s trailing 3-day mean consumption' }),
      dailyKgByType: KgByType,
      method: Type.Union([StringEnum(FEED_NEED_METHODS), Type.Null()]),
      neededKg: Num,
      neededUntil: NullableDate,
      runOut: Type.Union([RunOutDto, Type.Null()]),
      assumptions: Notes,
      reason: Reason,
    }),
    eggs: Type.Object({
      method: StringEnum(PRODUCTION_METHODS),
      hensAlive: Type.Number(),
      weeks: Type.Array(Type.Object({ week: Int, from: CalendarDate, to: CalendarDate, henDayPct: Num, eggs: Num })),
      totalEggs: Num,
      reason: Reason,
    }),
    health: HealthRiskDto,
    assumptions: Notes,
  },
  { $id: 'FlockForecast' },
);

export const FlockForecastResponse = Success(
  Type.Composite([
    FlockForecastDto,
    Type.Object({ current: Type.Boolean({ description: 'The forecast is of the flock’s active cycle (false once that cycle closed)' }) }),
  ]),
);

export const FarmFeedDto = Type.Object(
  {
    farmId: Type.String(),
    asOf: CalendarDate,
    computedAt: Timestamp,
    modelVersion: Type.String(),
    window: Type.Object({ from: CalendarDate, to: CalendarDate }),
    stock: Type.Object({
      totalKg: Type.Number(),
      dailyKg: Type.Number(),
      daysLeft: Num,
      runOutDate: NullableDate,
      byType: Type.Array(Type.Object({ feedType: Type.String(), stockKg: Type.Number(), dailyKg: Type.Number(), daysLeft: Num, runOutDate: NullableDate })),
    }),
    silos: Type.Array(
      Type.Object({
        deviceId: Type.String(),
        houseId: Type.String(),
        name: Type.String(),
        kg: Num,
        dailyKg: Type.Number(),
        daysLeft: Num,
        runOutDate: NullableDate,
      }),
    ),
    neededUntilHarvestKg: Type.Number({ description: 'Σ of the flocks’ feed needed until harvest (layers: 8 weeks)' }),
    shortfallKg: Type.Number({ description: 'What that need exceeds the stock (and silos) by; 0 when covered' }),
    flocksEvaluated: Int,
    flocksFailed: Type.Array(Type.String()),
  },
  { $id: 'FarmFeedForecast' },
);

export const FarmRiskDto = Type.Object({
  flockId: Type.String(),
  flockName: Type.String(),
  cycleId: Type.String(),
  houseId: NullableString,
  asOf: CalendarDate,
  computedAt: Timestamp,
  score: Type.Integer(),
  level: StringEnum(RISK_LEVELS),
  factors: Type.Array(HealthFactorDto, { description: 'The three strongest' }),
  harvestDate: NullableDate,
  feedRunOutDate: NullableDate,
});

export const FarmForecastResponse = Success(
  Type.Object({
    farmId: Type.String(),
    feed: Type.Union([FarmFeedDto, Type.Null()], { description: 'Null until a farm-wide run has computed it' }),
    healthRisks: Type.Array(FarmRiskDto, { description: 'The active cycles’ health risks, highest first' }),
  }),
);

export const DeviceRiskDto = Type.Object(
  {
    deviceId: Type.String(),
    farmId: Type.String(),
    houseId: Type.String(),
    name: Type.String(),
    kind: StringEnum(DEVICE_KINDS),
    status: StringEnum(DEVICE_STATUSES),
    lastSeen: Type.Union([Timestamp, Type.Null()]),
    score: Type.Integer({ minimum: 0, maximum: 100 }),
    level: StringEnum(RISK_LEVELS),
    window: Type.Object({ from: Timestamp, to: Timestamp, hours: Int }),
    factors: Type.Array(
      Type.Object({
        kind: StringEnum(DEVICE_RISK_FACTORS),
        metric: Type.Union([StringEnum(SENSOR_METRICS), Type.Null()]),
        severity: Type.Number({ minimum: 0, maximum: 1 }),
        contribution: Type.Number({ description: 'Its standalone score, 0–100' }),
        detail: Type.String(),
      }),
      { description: 'Strongest first' },
    ),
    computedAt: Timestamp,
    modelVersion: Type.String(),
  },
  { $id: 'DeviceRisk' },
);
export const DeviceRisksResponse = Success(
  Type.Object({ farmId: Type.String(), houseId: NullableString, devices: Type.Array(DeviceRiskDto, { description: 'Highest risk first' }) }),
);

export const RunErrorDto = Type.Object({ flockId: NullableString, deviceId: NullableString, message: Type.String() });
export const PredictiveRunDto = Type.Object(
  {
    id: Ulid,
    farmId: Type.String(),
    trigger: StringEnum(RUN_TRIGGERS),
    actorId: Type.String({ description: 'The user, or `system:predictive` for the hourly job' }),
    scope: Type.Object({ flockId: NullableString }, { description: 'A run of one flock names it' }),
    startedAt: Timestamp,
    finishedAt: Timestamp,
    durationMs: Type.Number(),
    items: Type.Object({ flocks: Int, forecasts: Int, devices: Int }, { description: 'Active cycles found, forecasts written, device risks written' }),
    errors: Type.Array(RunErrorDto, { description: 'What failed; the run went on with the rest' }),
  },
  { $id: 'PredictiveRun' },
);
export const PredictiveRunResponse = Success(PredictiveRunDto);
export const PredictiveRunListResponse = ListOf(PredictiveRunDto);

const Mape = Type.Object(
  { mapePct: Type.Union([Type.Number(), Type.Null()], { description: 'Mean absolute percentage error; null without a pair' }), n: Int },
  { $id: 'ForecastError' },
);
export const AccuracyDto = Type.Object({
  farmId: Type.String(),
  flockId: NullableString,
  from: CalendarDate,
  to: CalendarDate,
  modelVersions: Type.Array(Type.String()),
  weight: Mape,
  harvest: Mape,
  flocks: Type.Array(Type.Object({ flockId: Type.String(), flockName: Type.String(), weight: Mape, harvest: Mape })),
});
export const AccuracyResponse = Success(AccuracyDto);

// ---------------------------------------------------------------------------------------------------
// Non-HTTP

/** The hourly job's answer (its event outcome's `result`). */
export type PredictiveJobResult =
  | { skipped: 'disabled' }
  | { runId: string; startedAt: string; durationMs: number; farms: number; flocks: number; forecasts: number; devices: number; errors: number };
