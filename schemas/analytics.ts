import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ThresholdsSection } from './analytics-config.js';
import { FarmDate, periodProperties, StringEnum, Success, Timestamp, Ulid, UlidOf } from './common.js';
import { ANOMALY_METRICS, BIRD_TYPES, CONFIDENCES, DETECTORS, PHASES, RULE_SEVERITIES, WEIGHT_METHODS } from './vocabulary.js';
import { WeightDto } from './weights.js';
import { CalendarDate } from './flocks.js';
import { MOVEMENT_CATALOGUE, MovementDto } from './movements.js';
import { Assumptions, DatedFigureDto, FigureDto, figureProperties } from './figures.js';

export { DatedFigureDto, FigureDto };

/**
 * Analytics V2 (`/api/v2/analytics`): the interface contract's writes (egg production, water readings,
 * age-adjusted data), the path/query parameters of the reads, and their answers: every field the engine
 * returns, every KPI a Figure (tests/unit/analytics-response-types.test.ts keeps them equal to the engine's types).
 */

export const flockIdParams = Type.Object({ flockId: UlidOf('Id of the flock') }, { additionalProperties: false, $id: 'AnalyticsFlockParams' });
export type FlockIdParams = Static<typeof flockIdParams>;

const eggCollection = MOVEMENT_CATALOGUE.find((m) => m.type === 'egg_collection')!.schema;
const { type: _type, date: _date, notes, ...eggFields } = eggCollection.properties;

const RecordDate = (what: string) => Type.Optional(FarmDate(`Date of the ${what} (YYYY-MM-DD); default today (UTC)`));

/** The contract's body `{flockId, totalEggs, ...}`: the egg_collection fields, recorded in the flock's active cycle. */
export const eggProductionBody = Type.Object(
  { flockId: Ulid, date: RecordDate('collection'), ...eggFields, notes },
  {
    additionalProperties: false,
    $id: 'EggProductionBody',
    description: 'One day’s egg production of a layer or breeder flock: total eggs and their quality (cracked, dirty, double yolk, average weight, grades)',
  },
);
export type EggProductionBody = Static<typeof eggProductionBody>;

export const WATER_SOURCES = ['tank', 'line_start', 'line_end', 'well', 'mains', 'other'] as const;

/** The contract's body `{flockId, pH, ...}`: a drinking-water quality reading. */
export const waterReadingBody = Type.Object(
  {
    flockId: Ulid,
    pH: Type.Number({ minimum: 0, maximum: 14, description: 'Drinking water pH (0–14; acceptable 6.0–8.0 by default, see thresholds)' }),
    date: RecordDate('reading'),
    temperatureC: Type.Optional(Type.Number({ minimum: -5, maximum: 60, description: 'Water temperature, °C' })),
    tdsPpm: Type.Optional(Type.Number({ minimum: 0, maximum: 100_000, description: 'Total dissolved solids, ppm' })),
    chlorinePpm: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'Free chlorine, ppm' })),
    orpMv: Type.Optional(Type.Number({ minimum: -2000, maximum: 2000, description: 'Oxidation-reduction potential, mV' })),
    hardnessPpm: Type.Optional(Type.Number({ minimum: 0, maximum: 10_000, description: 'Hardness as CaCO₃, ppm' })),
    source: Type.Optional(Type.Unsafe<(typeof WATER_SOURCES)[number]>({ type: 'string', enum: [...WATER_SOURCES], description: 'Where the sample was taken' })),
    notes: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  },
  { additionalProperties: false, $id: 'WaterReadingBody' },
);
export type WaterReadingBody = Static<typeof waterReadingBody>;

export const WaterReadingDto = Type.Object(
  {
    id: Ulid,
    flockId: Ulid,
    cycleId: Ulid,
    farmId: Type.String(),
    date: CalendarDate,
    pH: Type.Number(),
    temperatureC: Type.Union([Type.Number(), Type.Null()]),
    tdsPpm: Type.Union([Type.Number(), Type.Null()]),
    chlorinePpm: Type.Union([Type.Number(), Type.Null()]),
    orpMv: Type.Union([Type.Number(), Type.Null()]),
    hardnessPpm: Type.Union([Type.Number(), Type.Null()]),
    source: Type.Union([Type.String(), Type.Null()]),
    notes: Type.Union([Type.String(), Type.Null()]),
    assessment: Type.Object(
      {
        pH: Type.Unsafe<'low' | 'below_optimum' | 'acceptable' | 'high'>({ type: 'string', enum: ['low', 'below_optimum', 'acceptable', 'high'] }),
        message: Type.String(),
        range: Type.Object({ min: Type.Number(), max: Type.Number(), performanceMin: Type.Number() }),
      },
      { description: 'The pH against the thresholds in force when it was recorded' },
    ),
    createdAt: Timestamp,
    createdBy: Type.String(),
  },
  { $id: 'WaterReading' },
);
export const WaterReadingResponse = Success(WaterReadingDto);

export const EggProductionResponse = Success(MovementDto);

export const AGE_ADJUSTED_METRICS = ['body_weight_g'] as const;

/** The contract's body `{value, ...}`: an observation of the flock at its age, compared with the breed standard for that age. */
export const ageAdjustedDataBody = Type.Object(
  {
    value: Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: 'The observed value (body weight: average grams per bird)' }),
    metric: Type.Optional(
      Type.Unsafe<(typeof AGE_ADJUSTED_METRICS)[number]>({
        type: 'string',
        enum: [...AGE_ADJUSTED_METRICS],
        default: 'body_weight_g',
        description: 'What was observed (default body_weight_g)',
      }),
    ),
    date: RecordDate('observation'),
    sampleSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'How many birds the average covers' })),
    referenceAgeDays: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000,
        description: 'Age to express the value at (default: the cycle’s targetAgeDays, else 42 for broilers and 18 weeks for layers)',
      }),
    ),
    notes: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false, $id: 'AgeAdjustedDataBody' },
);
export type AgeAdjustedDataBody = Static<typeof ageAdjustedDataBody>;

export const AgeAdjustedResponse = Success(
  Type.Object({
    metric: Type.String(),
    value: Type.Number(),
    unit: Type.String(),
    date: CalendarDate,
    ageDays: Type.Integer(),
    standard: Type.Union([Type.Object({ name: Type.String(), status: Type.String(), value: Type.Number(), interpolated: Type.Boolean() }), Type.Null()]),
    deviationPct: Type.Union([Type.Number(), Type.Null()]),
    ageAdjusted: Type.Union([Type.Object({ referenceAgeDays: Type.Integer(), value: Type.Number(), method: Type.String() }), Type.Null()]),
    reason: Type.Optional(Type.String({ description: 'Why there is no comparison (no standard for the breed, or the age is outside the table)' })),
    weighing: Type.Composite([WeightDto, Type.Object({ latestWeightUpdated: Type.Boolean() })], {
      description: 'The weighing it was stored as (GET …/weights lists it)',
    }),
  }),
);

// ---------------------------------------------------------------------------------------------------
// Reads of one cycle (params: CycleParams of schemas/cycles.ts)

export const CHARTS = ['weight', 'mortality', 'fcr'] as const;
const ChartQuery = Type.Optional(
  Type.Unsafe<(typeof CHARTS)[number]>({
    type: 'string',
    enum: [...CHARTS],
    default: 'weight',
    description: 'With `Accept: image/svg+xml`: which chart (weight vs standard, daily mortality, FCR vs standard)',
  }),
);

export const dailyAnalyticsQuery = Type.Object({ chart: ChartQuery }, { additionalProperties: false, $id: 'DailyAnalyticsQuery' });
export type DailyAnalyticsQuery = Static<typeof dailyAnalyticsQuery>;
export const breedAnalyticsQuery = Type.Object({ chart: ChartQuery }, { additionalProperties: false, $id: 'BreedAnalyticsQuery' });
export type BreedAnalyticsQuery = Static<typeof breedAnalyticsQuery>;

export const predictionsQuery = Type.Object(
  {
    targetAgeDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Age to predict the weight at (default: the cycle’s targetAgeDays)' })),
    targetWeightGrams: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: 'Weight whose date to predict (default: the cycle’s targetWeightGrams)' }),
    ),
    forecastWeeks: Type.Optional(Type.Integer({ minimum: 1, maximum: 52, default: 8, description: 'Layers: weeks of production forecast' })),
  },
  { additionalProperties: false, $id: 'PredictionsQuery' },
);
export type PredictionsQuery = Static<typeof predictionsQuery>;

export const anomaliesQuery = Type.Object(
  {
    severity: Type.Optional(
      Type.Unsafe<'warning' | 'critical'>({ type: 'string', enum: ['warning', 'critical'], description: 'Only anomalies of this severity' }),
    ),
    ...periodProperties,
  },
  { additionalProperties: false, $id: 'AnomaliesQuery' },
);
export type AnomaliesQuery = Static<typeof anomaliesQuery>;

export const eggQualityQuery = Type.Object(
  {
    cycleId: Type.Optional(Type.String({ pattern: Ulid.pattern, description: 'Default: the flock’s active cycle' })),
    window: Type.Optional(
      Type.Unsafe<'day' | 'week'>({ type: 'string', enum: ['day', 'week'], default: 'week', description: 'Periods: calendar days or ISO weeks' }),
    ),
    periods: Type.Optional(Type.Integer({ minimum: 3, maximum: 52, description: 'Latest periods the trend is fitted on (default 7 days or 4 weeks)' })),
  },
  { additionalProperties: false, $id: 'EggQualityQuery' },
);
export type EggQualityQuery = Static<typeof eggQualityQuery>;

// ---------------------------------------------------------------------------------------------------
// Answers: every field the engine (shared/domain/analytics) returns, typed. Every KPI is a Figure.
// tests/unit/analytics-response-types.test.ts asserts at compile time that the static type of each schema
// equals the engine's output type, so the two cannot drift apart.

const Num = Type.Union([Type.Number(), Type.Null()]);
const Int = Type.Integer();
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableDate = Type.Union([CalendarDate, Type.Null()]);
/** A map from a free key (a cause of death, a feed type, an issue kind…) to a number. */
const Counts = (description: string) => Type.Record(Type.String(), Type.Number(), { description });

export const WeightFigureDto = Type.Object(
  {
    ...figureProperties,
    date: Type.Union([CalendarDate, Type.Null()], { description: 'When the weight was measured (the weighing’s date, or the day’s for a standard)' }),
    source: Type.Union([StringEnum(['weighing', 'breed_standard'] as const), Type.Null()]),
  },
  { $id: 'WeightFigure', description: 'A body weight Figure (g) with its date and where it came from' },
);

export const AnalyticsCycleHeader = Type.Object(
  {
    flockId: Ulid,
    flockName: Type.String(),
    cycleId: Ulid,
    farmId: Type.String(),
    birdType: StringEnum(BIRD_TYPES),
    breed: NullableString,
    status: StringEnum(['active', 'closed'] as const),
    startDate: CalendarDate,
    endDate: NullableDate,
    asOf: CalendarDate,
    configVersion: Type.Integer({ description: 'Analytics configuration version used (0: defaults)' }),
  },
  { $id: 'AnalyticsCycleHeader', description: 'The cycle the figures cover and the configuration they were computed with' },
);

const eggFigures = {
  henDayPct: FigureDto,
  henHousedPct: FigureDto,
  henHousedEggs: FigureDto,
  eggWeightGrams: FigureDto,
  eggMassGrams: FigureDto,
  feedPerKgEgg: FigureDto,
  feedPerDozenEggs: FigureDto,
  crackedPct: FigureDto,
  dirtyPct: FigureDto,
};
const growthFigures = {
  bodyWeight: WeightFigureDto,
  liveWeightKg: FigureDto,
  fcr: FigureDto,
  correctedFcr: FigureDto,
  adgSincePlacement: FigureDto,
  adgSinceLastWeighing: FigureDto,
  epef: FigureDto,
};
const stockingDensity = { stockingDensityKgPerM2: FigureDto, stockingDensityBirdsPerM2: FigureDto };

export const DayBirdsDto = Type.Object({
  aliveStart: Int,
  placed: Int,
  transferredIn: Int,
  present: Int,
  deaths: Int,
  culls: Int,
  sold: Int,
  transferredOut: Int,
  aliveEnd: Int,
  housed: Int,
});

const FigureSourceDto = Type.Union([StringEnum(['manual', 'sensor'] as const), Type.Null()]);

export const DailyKpisDto = Type.Object(
  {
    date: CalendarDate,
    dayOfCycle: Int,
    ageDays: Int,
    phase: StringEnum(PHASES),
    birds: DayBirdsDto,
    deathsByCause: Counts('Deaths that day per cause'),
    sources: Type.Object(
      { waterLiters: FigureSourceDto, feedKg: FigureSourceDto },
      {
        description:
          'Where the day’s water and feed figures come from: manual (recorded movements, which always win), sensor (the house’s water meters and silo load cells, on a day without a manual figure), or null (none)',
      },
    ),
    dailyMortalityPct: FigureDto,
    cumulativeMortalityPct: FigureDto,
    livabilityPct: FigureDto,
    feedKg: FigureDto,
    cumulativeFeedKg: FigureDto,
    feedGramsPerBird: FigureDto,
    waterLiters: FigureDto,
    waterMlPerBird: FigureDto,
    waterFeedRatio: FigureDto,
    expectedWaterLiters: FigureDto,
    waterPctOfExpected: FigureDto,
    eggs: Type.Object({ collected: Int, cracked: Int, dirty: Int, doubleYolk: Int, cumulative: Int }),
    ...stockingDensity,
    ...eggFigures,
    ...growthFigures,
  },
  { $id: 'DailyKpis', description: 'Every KPI of one calendar day of the cycle' },
);

export const CycleKpisDto = Type.Object(
  {
    cycleId: Ulid,
    flockId: Ulid,
    birdType: StringEnum(BIRD_TYPES),
    breed: NullableString,
    breedStandard: Type.Union([Type.Object({ id: Type.String(), name: Type.String(), status: StringEnum(['official', 'approximate'] as const) }), Type.Null()]),
    status: StringEnum(['active', 'closed'] as const),
    startDate: CalendarDate,
    asOf: CalendarDate,
    days: Type.Integer({ description: 'Days in the series (start to asOf, both included)' }),
    ageDays: NullableInt,
    phase: Type.Union([StringEnum(PHASES), Type.Null()]),
    performanceDate: Type.Union([CalendarDate, Type.Null()], { description: 'The day the weight, FCR, ADG and EPEF are of: the last day with birds' }),
    birds: Type.Object({ placed: Int, transferredIn: Int, housed: Int, deaths: Int, culls: Int, sold: Int, transferredOut: Int, alive: Int }),
    deathsByCause: Counts('Deaths per cause over the cycle'),
    mortalityPct: FigureDto,
    livabilityPct: FigureDto,
    feedConsumedKg: FigureDto,
    feedDeliveredKg: FigureDto,
    waterLiters: FigureDto,
    waterFeedRatio: FigureDto,
    latestWeighing: Type.Union([
      Type.Object({
        date: CalendarDate,
        ageDays: Int,
        grams: Type.Number(),
        method: StringEnum(WEIGHT_METHODS),
        confidence: StringEnum(CONFIDENCES),
        sampleSize: NullableInt,
      }),
      Type.Null(),
    ]),
    uniformityPct: DatedFigureDto,
    cvPct: DatedFigureDto,
    eggs: Type.Object({ collected: Int, cracked: Int, dirty: Int, doubleYolk: Int }),
    layingPeriod: Type.Union([Type.Object({ from: CalendarDate, to: CalendarDate, days: Int }), Type.Null()]),
    peakProduction: Type.Object({ henDayPct: FigureDto, ageWeek: NullableInt, from: NullableDate, to: NullableDate }),
    ...stockingDensity,
    ...eggFigures,
    ...growthFigures,
  },
  { $id: 'CycleKpis', description: 'Every KPI of the cycle' },
);

export const DailyAnalyticsResponse = Success(Type.Object({ cycle: AnalyticsCycleHeader, days: Type.Array(DailyKpisDto) }));
export const CycleAnalyticsResponse = Success(Type.Object({ cycle: AnalyticsCycleHeader, kpis: CycleKpisDto }));

const StandardStatusDto = StringEnum(['official', 'approximate'] as const);
const StandardSource = Type.Object({ publisher: Type.String(), document: Type.String(), transcription: Type.String() });
export const StandardRefDto = Type.Object(
  { id: Type.String(), name: Type.String(), status: StandardStatusDto, edition: NullableInt, source: StandardSource },
  { $id: 'BreedStandardRef', description: 'The breed standard figures are compared with' },
);
export const MetricComparisonDto = Type.Object(
  {
    actual: Num,
    standard: Num,
    unit: Type.String(),
    deviationPct: Type.Union([Type.Number(), Type.Null()], { description: '(actual − standard) ÷ standard × 100; null unless both are known' }),
    interpolated: Type.Boolean({ description: 'The standard was interpolated between two tabulated ages' }),
    reason: Type.Optional(Type.String({ description: 'Why actual, standard or deviation is null' })),
    assumptions: Type.Optional(Assumptions),
  },
  { $id: 'MetricComparison' },
);
export const ComparisonDayDto = Type.Object(
  { date: CalendarDate, ageDays: Int, bodyWeight: MetricComparisonDto, cumulativeFcr: MetricComparisonDto, henDayPct: MetricComparisonDto },
  { $id: 'ComparisonDay' },
);
export const BreedComparisonDto = Type.Object(
  {
    breed: NullableString,
    standard: Type.Union([StandardRefDto, Type.Null()]),
    reason: Type.Optional(Type.String({ description: 'Why there is no standard (unknown breed)' })),
    interpolation: Type.String(),
    days: Type.Array(ComparisonDayDto),
  },
  { description: 'Actual vs standard per day; `standard: null` with a reason for breeds without one' },
);
export const BreedAnalyticsResponse = Success(Type.Object({ cycle: AnalyticsCycleHeader, comparison: BreedComparisonDto }));

const financialLineProperties = {
  amount: Type.Number({ description: 'Amount in `currency`' }),
  quantity: Type.Number({ description: 'The quantity priced, in `unit`' }),
  unit: Type.String({ description: 'What `quantity` counts: birds, kg, m3, treatments, bird-doses, eggs' }),
  pricedFromMovements: Type.Number(),
  pricedFromConfig: Type.Number(),
  amountFromMovements: Type.Number(),
  amountFromConfig: Type.Number(),
  averageUnitPrice: Num,
  assumptions: Assumptions,
};
export const FinancialLineDto = Type.Object(financialLineProperties, { $id: 'FinancialLine' });
export const FeedTypeCostDto = Type.Object({
  feedType: NullableString,
  consumedKg: Type.Number(),
  unitPrice: Type.Number(),
  priceSource: StringEnum(['deliveries', 'feedPerKgByType', 'feedPerKg'] as const),
  deliveredPricedKg: Type.Number(),
  amount: Type.Number(),
});
export const BirdSalesBreakdownDto = Type.Object({
  pricedBirds: Type.Number(),
  pricedRevenue: Type.Number(),
  weighedUnpricedBirds: Type.Number(),
  weighedUnpricedKg: Type.Number(),
  weighedUnpricedRevenue: Type.Number(),
  unweighedUnpricedBirds: Type.Number(),
  unweighedUnpricedRevenue: Type.Number(),
});
export const CycleFinancialsDto = Type.Object(
  {
    currency: Type.String(),
    costs: Type.Object({
      chicks: FinancialLineDto,
      feed: Type.Object({ ...financialLineProperties, byType: Type.Array(FeedTypeCostDto) }),
      water: Type.Object({ ...financialLineProperties, liters: Type.Number() }),
      medication: FinancialLineDto,
      vaccination: Type.Object({ ...financialLineProperties, vaccinations: Type.Number() }),
      other: FinancialLineDto,
      total: Type.Number(),
    }),
    revenue: Type.Object({
      birds: Type.Object({ ...financialLineProperties, breakdown: BirdSalesBreakdownDto }),
      eggs: FinancialLineDto,
      total: Type.Number(),
    }),
    margin: FigureDto,
    marginPct: FigureDto,
    kgProduced: Type.Object({ ...figureProperties, soldKg: Type.Number(), aliveKg: Num, birdsAlive: Type.Number(), birdsSoldUnweighed: Type.Number() }),
    costPerKgLiveweight: FigureDto,
    costPerBirdPlaced: FigureDto,
    costPerEgg: FigureDto,
    costPerTray: FigureDto,
    feedCostSharePct: FigureDto,
    quantities: Type.Object({
      feedBagKg: Type.Number(),
      feedDeliveredKg: Type.Number(),
      feedDeliveredBags: Type.Number(),
      feedConsumedKg: Type.Number(),
      feedConsumedBags: Type.Number(),
      eggsPerTray: Type.Number(),
      eggsCollected: Type.Number(),
      eggsCollectedTrays: Type.Number(),
      eggsSold: Type.Number(),
      eggsSoldTrays: Type.Number(),
    }),
    assumptions: Assumptions,
  },
  { description: 'Costs, revenue and margin from movements × pricing' },
);
export const FinancialsResponse = Success(Type.Object({ cycle: AnalyticsCycleHeader, financials: CycleFinancialsDto }));

export const WeightPredictionDto = Type.Object({
  fit: Type.Object({
    method: StringEnum(['breed_curve_scaled', 'breed_curve', 'linear_adg', 'none'] as const),
    standard: Type.Union([StandardRefDto, Type.Null()]),
    ratio: FigureDto,
    weighings: Int,
    lastWeighing: Type.Union([Type.Object({ date: CalendarDate, ageDays: Int, grams: Type.Number() }), Type.Null()]),
    residualRmsGrams: FigureDto,
    residualRmsPct: FigureDto,
    adgGramsPerDay: FigureDto,
    confidence: Type.Union([StringEnum(CONFIDENCES), Type.Null()]),
  }),
  atTargetAge: Type.Object({ ageDays: NullableInt, date: NullableDate, weight: FigureDto }),
  targetWeight: Type.Object({
    grams: Num,
    reached: Type.Boolean(),
    ageDays: NullableInt,
    date: NullableDate,
    reason: Type.Optional(Type.String()),
  }),
  assumptions: Assumptions,
  reason: Type.Optional(Type.String({ description: 'Why nothing could be predicted' })),
});
export const ProductionForecastDto = Type.Object({
  method: StringEnum(['breed_curve_scaled', 'breed_curve', 'recent_flat', 'none'] as const),
  standard: Type.Union([StandardRefDto, Type.Null()]),
  ratio: FigureDto,
  basis: Type.Union([Type.Object({ from: CalendarDate, to: CalendarDate, eggs: Type.Number(), henDayPct: FigureDto, standardEggs: Num }), Type.Null()]),
  hensAlive: Type.Number(),
  weeks: Type.Array(Type.Object({ week: Int, from: CalendarDate, to: CalendarDate, ageWeek: Int, henDayPct: FigureDto, eggs: FigureDto })),
  assumptions: Assumptions,
  reason: Type.Optional(Type.String()),
});
export const PredictionsDto = Type.Object(
  { weight: WeightPredictionDto, production: ProductionForecastDto },
  { description: 'Weight and production forecasts' },
);
export const PredictionsResponse = Success(Type.Object({ cycle: AnalyticsCycleHeader, predictions: PredictionsDto }));

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
export const ThresholdsDto = Type.Required(ThresholdsSection, { $id: 'Thresholds', description: 'The thresholds section in force' });
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

const ScoreComponents = <T extends TSchema>(value: T) => Type.Object({ quality: value, onTime: value, quantity: value });
export const SupplierReliabilityDto = Type.Object({
  supplierId: Type.String(),
  deliveries: Int,
  kg: Type.Number(),
  feedTypes: Type.Record(Type.String(), Type.Object({ deliveries: Int, kg: Type.Number(), averagePricePerKg: FigureDto }), { description: 'Per feed type' }),
  firstDelivery: CalendarDate,
  lastDelivery: CalendarDate,
  onTime: Type.Object({ ratePct: FigureDto, onTime: Int, late: Int, averageDaysLate: FigureDto, averageLeadTimeDays: FigureDto }),
  quantity: Type.Object({ meanAbsVariancePct: FigureDto, meanVariancePct: FigureDto, shortDeliveries: Int, overDeliveries: Int, exactDeliveries: Int }),
  quality: Type.Object({ issueRatePct: FigureDto, deliveriesWithIssues: Int, issuesByKind: Counts('Quality issues per kind') }),
  price: Type.Object({ averagePerKg: FigureDto, pricedKg: Type.Number() }),
  components: ScoreComponents(FigureDto),
  score: FigureDto,
  basis: Type.Object({ onTime: Int, leadTime: Int, quantity: Int, quality: Int, price: Int }),
});
export const SupplierReliabilityReportDto = Type.Object({
  suppliers: Type.Array(SupplierReliabilityDto),
  deliveries: Int,
  kg: Type.Number(),
  scoreWeights: ScoreComponents(Type.Number()),
});
export const SuppliersResponse = Success(
  Type.Object(
    { cycle: AnalyticsCycleHeader, ...SupplierReliabilityReportDto.properties },
    { description: 'Supplier reliability from the cycle’s feed deliveries' },
  ),
);

export const EggQualityPeriodDto = Type.Object(
  {
    period: Type.String({ description: 'The date (window day) or ISO week `YYYY-Www` (window week); the whole range `from/to` for `overall`' }),
    from: CalendarDate,
    to: CalendarDate,
    days: Int,
    eggsCollected: Int,
    eggsCracked: Int,
    eggsDirty: Int,
    eggsDoubleYolk: Int,
    crackedPct: FigureDto,
    dirtyPct: FigureDto,
    doubleYolkPct: FigureDto,
    saleableEggs: Int,
    saleablePct: FigureDto,
    averageEggWeightGrams: FigureDto,
    eggsWeighed: Int,
    henDays: Type.Union([Type.Number(), Type.Null()], { description: 'Σ hens alive over the period’s days (a count); null when a day has no hen count' }),
    henDayPct: FigureDto,
  },
  { $id: 'EggQualityPeriod' },
);
export const MetricTrendDto = Type.Object(
  {
    direction: StringEnum(['improving', 'stable', 'worsening', 'insufficient_data'] as const),
    unit: Type.String({ description: 'The metric’s unit (% or g); `mean` and `latest` are in it' }),
    points: Int,
    slopePerPeriod: FigureDto,
    slopePerWeek: FigureDto,
    tolerancePerWeek: Type.Number({ description: 'The threshold |slopePerWeek| must exceed to be a change, in the unit of `slopePerWeek`' }),
    mean: FigureDto,
    latest: FigureDto,
    reason: Type.Optional(Type.String()),
  },
  {
    $id: 'MetricTrend',
    description:
      'The direction of a metric over the last periods. Slopes are Figures: least-squares slope per period and per week, in pp/day or pp/week ' +
      '(percentage points) for a % metric, g/day or g/week for egg weight; `mean` and `latest` are Figures in the metric’s `unit`.',
  },
);
export const EggQualityTrendDto = Type.Object({
  window: StringEnum(['day', 'week'] as const),
  from: NullableDate,
  to: NullableDate,
  periods: Type.Array(EggQualityPeriodDto),
  overall: Type.Union([EggQualityPeriodDto, Type.Null()]),
  trend: Type.Object({
    periods: Int,
    from: NullableDate,
    to: NullableDate,
    crackedPct: MetricTrendDto,
    dirtyPct: MetricTrendDto,
    averageEggWeightGrams: MetricTrendDto,
  }),
});
export const EggQualityResponse = Success(
  Type.Object({ cycle: AnalyticsCycleHeader, ...EggQualityTrendDto.properties }, { description: 'Egg quality per period and its trend' }),
);

const AgeUnitDto = StringEnum(['day', 'week'] as const);
export const BreedStandardSummaryDto = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    birdType: StringEnum(BIRD_TYPES),
    aliases: Type.Array(Type.String()),
    source: StandardSource,
    edition: NullableInt,
    status: StandardStatusDto,
    ageUnit: AgeUnitDto,
    note: NullableString,
    interpolation: Type.String(),
    series: Type.Array(
      Type.Object({
        key: StringEnum(['bodyWeight', 'cumulativeFcr', 'henDayPct'] as const),
        label: Type.String(),
        unit: StringEnum(['g', 'kg', 'kg/kg', '%'] as const),
        ageRange: Type.Object({ from: Type.Number(), to: Type.Number(), unit: AgeUnitDto }),
        ageRangeDays: Type.Object({ from: Type.Number(), to: Type.Number() }),
        points: Type.Array(Type.Object({ age: Type.Number(), ageDays: Type.Number(), value: Type.Number() })),
      }),
    ),
  },
  { $id: 'BreedStandard' },
);
export const BreedStandardsResponse = Success(Type.Array(BreedStandardSummaryDto));

export const AnalyticsOverviewResponse = Success(
  Type.Object({
    name: Type.String(),
    version: Type.String(),
    description: Type.String(),
    endpoints: Type.Array(Type.Object({ method: Type.String(), path: Type.String(), summary: Type.String(), capability: Type.String() })),
    charts: Type.Array(Type.String()),
    breedStandards: Type.Array(Type.String()),
  }),
);
