import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { ExpectedVersion, ListOf, pageQueryProperties, Success, Timestamp } from './common.js';

/**
 * The analytics configuration (`/api/v1/config/analytics`): six sections, one document for the service,
 * versioned with history. Every field has a default drawn from the references of docs/domain.md (thresholds, ratios,
 * consumption) or, for prices, an example value to be replaced by the farm's own. The defaults live here,
 * next to their schema, and nowhere else: `ANALYTICS_DEFAULTS` is built from the schemas' `default`s.
 *
 * A PUT names the sections it replaces; a named section's omitted fields take their defaults and the
 * sections it does not name keep their current values.
 */

const num = (def: number, description: string, bounds: { min?: number; max?: number; exclusiveMin?: number } = {}) =>
  Type.Number({
    default: def,
    description,
    ...(bounds.exclusiveMin !== undefined ? { exclusiveMinimum: bounds.exclusiveMin } : { minimum: bounds.min ?? 0 }),
    maximum: bounds.max ?? 1_000_000,
  });
const pct = (def: number, description: string) => num(def, description, { max: 100 });
const nullableNum = (def: number | null, description: string, max = 1_000_000) =>
  Type.Union([Type.Number({ minimum: 0, maximum: max }), Type.Null()], { default: def, description });

/** A section as a request accepts it: every field optional (omitted fields take their defaults). */
const section = <T extends TProperties>(properties: T, $id: string, description: string) =>
  Type.Partial(Type.Object(properties), { additionalProperties: false, $id, description });

export const PricingSection = section(
  {
    currency: Type.String({ pattern: '^[A-Z]{3}$', default: 'USD', description: 'ISO 4217 currency of every price below' }),
    chickPerBird: num(0.55, 'Price of a placed day-old chick or pullet, per bird (used when a bird_inflow carries no unitCost)'),
    feedPerKg: num(0.45, 'Feed price per kg (used when a feed_delivery carries no unitPrice and its feed type has no price below)'),
    feedPerKgByType: Type.Record(Type.String({ minLength: 1, maxLength: 80 }), Type.Number({ minimum: 0, maximum: 1_000_000 }), {
      default: {},
      maxProperties: 100,
      description: 'Feed price per kg by feed type (e.g. {"starter": 0.52}); wins over feedPerKg',
    }),
    liveWeightPerKg: num(1.4, 'Sale price per kg live weight (bird_sale with totalWeightKg and no unitPrice)'),
    birdPerHead: num(2.5, 'Sale price per bird (bird_sale without totalWeightKg and without unitPrice)'),
    eggPerUnit: num(0.12, 'Sale price per egg (egg_sale without unitPrice)'),
    waterPerM3: num(1.0, 'Water cost per m³ (1,000 litres)'),
    medicationPerTreatment: num(0, 'Cost of one medication movement'),
    vaccinationPerBird: num(0.03, 'Vaccine cost per bird alive on the day of a vaccination movement'),
    otherCostPerBirdPlaced: num(0, 'Every other cost (litter, energy, labour, overhead) per bird placed'),
  },
  'PricingSection',
  'Prices that turn movements into costs and revenue. Defaults are EXAMPLES, not market data: set your own. A price on the movement itself (unitCost, unitPrice) always wins.',
);

export const ConsumptionSection = section(
  {
    broilerWaterFeedRatio: num(1.7, 'Expected broiler water per kg of the breed standard’s feed intake for the age (l/kg at 21 °C; Aviagen gives 1.6–1.8)'),
    waterIncreasePctPerDegC: pct(6.5, 'More water per °C of house temperature above 21 °C (Aviagen: about 6.5 %)'),
    broilerWaterMlPerBirdPerAgeDay: num(
      5.7,
      'Broilers of a breed without a standard: expected water per bird per day = age in days × this (ml; Pesti et al. 1985, warm season)',
    ),
    layerWaterMlPerBirdPerDay: num(210, 'Expected layer water intake per bird per day at 20 °C (ml)'),
    layerWaterMlPerBirdPerDayHot: num(400, 'Expected layer water intake per bird per day at 32 °C (ml)'),
    layerFeedGramsPerHenPerDay: num(110, 'Expected feed intake of a laying hen per day (g; typical brown layer in lay, approximate)'),
    lowIntakeTolerancePct: pct(15, 'Water or feed below expected by more than this % counts as low intake'),
  },
  'ConsumptionSection',
  'Expected feed and water intake, the reference for the intake KPIs and the low-intake anomalies.',
);

/**
 * The practical significance a statistical detection must also reach before it opens an anomaly, per bird
 * type (docs/domain.md, "Practical significance of the detectors"): the robust z, EWMA and CUSUM say a day is
 * unusual for the flock; these say whether it matters on a farm. Nested objects: a request may give any of
 * their fields, the others take their defaults.
 */
const birdSignificance = (who: string, mortalityPct: number) => {
  const fields = {
    dailyMortalityPct: pct(mortalityPct, `${who}: a mortality detection opens only when the day’s deaths are above this % of the birds present`),
    waterChangePct: pct(10, `${who}: a water detection opens only when the day’s water is at least this % above or below its usual level for the age`),
    feedChangePct: pct(10, `${who}: a feed detection opens only when the day’s feed per bird is at least this % above or below its usual level for the age`),
    bodyWeightChangePct: pct(
      5,
      `${who}: a body-weight detection opens only when the weighing is at least this % off its usual place against the breed standard`,
    ),
  };
  const description = `Practical thresholds of the detectors for ${who}`;
  return {
    request: Type.Partial(Type.Object(fields), {
      additionalProperties: false,
      default: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.default])),
      description,
    }),
    answer: Type.Object(fields, { description }),
  };
};
const BROILER_SIGNIFICANCE = birdSignificance('broilers', 0.1);
const LAYER_SIGNIFICANCE = birdSignificance('layers', 0.05);
const BREEDER_SIGNIFICANCE = birdSignificance('breeders', 0.05);
const CriticalFactor = num(
  2,
  'A detection is critical only when its figure is at least this many times its practical threshold (and the statistics say critical)',
  { min: 1, max: 100 },
);
const SIGNIFICANCE_DESCRIPTION =
  'What a statistical detection must also reach to open an anomaly (a practical threshold per bird type), and the band from which it may be critical';
const Significance = Type.Partial(
  Type.Object({
    criticalFactor: CriticalFactor,
    broiler: BROILER_SIGNIFICANCE.request,
    layer: LAYER_SIGNIFICANCE.request,
    breeder: BREEDER_SIGNIFICANCE.request,
  }),
  {
    additionalProperties: false,
    default: {
      criticalFactor: CriticalFactor.default,
      broiler: BROILER_SIGNIFICANCE.request.default,
      layer: LAYER_SIGNIFICANCE.request.default,
      breeder: BREEDER_SIGNIFICANCE.request.default,
    },
    description: SIGNIFICANCE_DESCRIPTION,
  },
);
/** The significance as answered: every field present. */
export const SignificanceDto = Type.Object(
  { criticalFactor: CriticalFactor, broiler: BROILER_SIGNIFICANCE.answer, layer: LAYER_SIGNIFICANCE.answer, breeder: BREEDER_SIGNIFICANCE.answer },
  { description: SIGNIFICANCE_DESCRIPTION },
);

export const ThresholdsSection = section(
  {
    dailyMortalityPct: pct(0.5, 'Alarm when one day’s deaths exceed this % of the birds in the house that day'),
    cumulativeMortalityBasePct: pct(
      1,
      'Cumulative mortality alarm: above base % + perAgeDay % × age in days (the 1 % + 0.06 % × age figure of EU Directive 2007/43/EC Annex V)',
    ),
    cumulativeMortalityPerAgeDayPct: pct(0.06, 'Cumulative mortality alarm: % added per day of age'),
    ammoniaMaxPpm: num(20, 'Ammonia at bird height, ppm (EU 2007/43/EC Annex II)'),
    co2MaxPpm: num(3000, 'CO₂ at bird height, ppm (EU 2007/43/EC Annex II)'),
    co2AscitesRiskPpm: num(3500, 'CO₂ above which ascites risk rises, ppm'),
    coIdealMaxPpm: num(10, 'Carbon monoxide ideal maximum, ppm'),
    coHarmfulPpm: num(50, 'Carbon monoxide harmful level, ppm'),
    h2sMaxPpm: num(5, 'Hydrogen sulphide maximum, ppm'),
    waterPhMin: num(6.0, 'Drinking water pH, lowest acceptable', { max: 14 }),
    waterPhMax: num(8.0, 'Drinking water pH, highest acceptable', { max: 14 }),
    waterPhPerformanceMin: num(6.3, 'Drinking water pH below which performance suffers', { max: 14 }),
    minLightLux: num(20, 'Broiler light intensity minimum, lux'),
    minDarkHours: num(
      6,
      'Broilers from day 7 until 3 days before slaughter: hours of darkness a day, minimum (the compliance report’s lighting rule). At least 6, the minimum of Council Directive 2007/43/EC, Annex I, point 6',
      { max: 24 },
    ),
    lightStepUpMaxHoursPerWeek: num(
      1,
      'Layers and breeders: the most the day length may rise within 7 days before the lighting rule warns (a Flockwise bound, no published figure)',
      { exclusiveMin: 0, max: 24 },
    ),
    broilerMaxKgPerM2: num(33, 'Broiler stocking density limit, kg live weight per m² (39 or 42 under extra conditions, 2007/43/EC)'),
    layerMaxHensPerM2: num(
      9,
      'Laying hens in barn, aviary and free-range houses, per m² of usable area (the compliance report’s stocking density). At most 9, the limit of Council Directive 1999/74/EC, Art. 4(1)(4)',
    ),
    humidityMinPct: pct(50, 'Relative humidity, lowest acceptable after brooding'),
    humidityMaxPct: pct(70, 'Relative humidity, highest acceptable'),
    waterLowIntakeDays: Type.Integer({
      minimum: 1,
      maximum: 30,
      default: 2,
      description: 'Consecutive days of low water intake that raise an anomaly (one day is usually noise)',
    }),
    waterFeedRatioMin: num(1.6, 'Water:feed ratio (l per kg), lowest normal'),
    waterFeedRatioMax: num(2.0, 'Water:feed ratio (l per kg), highest normal'),
    henDayWeeklyDropPoints: pct(5, 'Layers: a fall of the hen-day % by more than this many points within 7 days calls for a vet'),
    weightBelowStandardPct: pct(10, 'Body weight more than this % below the breed standard is an anomaly'),
    fcrAboveStandardPct: pct(5, 'FCR more than this % above the breed standard is an anomaly'),
    uniformityMinPct: pct(80, 'Uniformity below this % is flagged (≥ 80 % at point of lay is the layer goal)'),
    crackedEggsMaxPct: pct(3, 'Cracked eggs above this % of the day’s collection are flagged'),
    sensorStaleFactor: num(2, 'A sensor is stale after this many reporting intervals without data', { exclusiveMin: 0, max: 100 }),
    sensorOfflineFactor: num(4, 'A sensor is offline after this many reporting intervals without data', { exclusiveMin: 0, max: 100 }),
    significance: Significance,
  },
  'ThresholdsSection',
  'Environment, welfare and performance thresholds; the anomaly detection compares every day against them.',
);

export const UnitConversionsSection = section(
  {
    eggsPerTray: Type.Integer({ minimum: 1, maximum: 1000, default: 30, description: 'Eggs per tray (egg reports also give trays)' }),
    eggsPerCase: Type.Integer({ minimum: 1, maximum: 10_000, default: 360, description: 'Eggs per case' }),
    feedBagKg: num(25, 'Kilograms in one feed bag (feed reports also give bags)', { exclusiveMin: 0, max: 10_000 }),
    litersPerGallon: num(3.785411784, 'Litres per gallon (US gallon by default; 4.54609 for the imperial gallon)', { exclusiveMin: 0, max: 100 }),
    gramsPerPound: num(453.59237, 'Grams per pound', { exclusiveMin: 0, max: 10_000 }),
  },
  'UnitConversionsSection',
  'Units the reports also express their figures in.',
);

export const RatiosSection = section(
  {
    correctedFcrReferenceGrams: num(2500, 'Corrected FCR: the reference body weight, g (modern 2500; the older convention 1500)', {
      exclusiveMin: 0,
      max: 10_000,
    }),
    correctedFcrPer100Grams: num(0.02, 'Corrected FCR: FCR points per 100 g of difference (modern 0.02; the older convention 0.04)', { max: 1 }),
    feedPerKgEggGood: num(2.2, 'Feed per kg of egg at or below this is good'),
    feedPerDozenEggsGoodKg: num(1.5, 'Feed per dozen eggs at or below this many kg is good'),
    uniformityGoalPct: pct(80, 'Uniformity goal, % of birds within ±10 % of the mean'),
  },
  'RatiosSection',
  'Conventions and goals of the derived ratios (corrected FCR reference, egg efficiency goals).',
);

export const FallbacksSection = section(
  {
    placementWeightFromBreedStandard: Type.Boolean({
      default: true,
      description: 'When no bird_inflow gave averageWeightGrams, ADG starts from the breed standard’s day-0 weight',
    }),
    placementWeightGrams: nullableNum(42, 'Placement weight (g) when neither the inflow nor a breed standard gives one; null: ADG is null', 10_000),
    eggWeightGrams: nullableNum(
      null,
      'Egg weight (g) assumed when collections carry no averageEggWeightGrams; null: egg mass and feed per kg egg are null',
      200,
    ),
    weightFromBreedStandard: Type.Boolean({
      default: false,
      description: 'When a day has no weighing to stand on, use the breed standard weight (marked estimated) for FCR, EPEF and live weight',
    }),
    carryForwardWeightDays: Type.Integer({
      minimum: 0,
      maximum: 28,
      default: 7,
      description: 'A weighing stands for the following days up to this many days; older weighings leave weight-based KPIs null',
    }),
  },
  'FallbacksSection',
  'Where a default may stand in for a missing input. Every KPI computed from a fallback says so in its `assumptions`.',
);

export const ANALYTICS_SECTIONS = ['pricing', 'consumption', 'thresholds', 'unitConversions', 'ratios', 'fallbacks'] as const;
export type AnalyticsSectionName = (typeof ANALYTICS_SECTIONS)[number];

const SECTION_SCHEMAS = {
  pricing: PricingSection,
  consumption: ConsumptionSection,
  thresholds: ThresholdsSection,
  unitConversions: UnitConversionsSection,
  ratios: RatiosSection,
  fallbacks: FallbacksSection,
} satisfies Record<AnalyticsSectionName, TObject>;

/** Each section with every field present, nested objects too (what the service stores and computes with). */
type Complete<T> = { [K in keyof T]-?: CompleteValue<Exclude<T[K], undefined>> };
type CompleteValue<V> = V extends readonly unknown[] ? V : V extends object ? Complete<V> : V;
export type PricingConfig = Complete<Static<typeof PricingSection>>;
export type ConsumptionConfig = Complete<Static<typeof ConsumptionSection>>;
export type ThresholdsConfig = Complete<Static<typeof ThresholdsSection>>;
/** The detectors' practical thresholds (`thresholds.significance`). */
export type SignificanceConfig = ThresholdsConfig['significance'];
export type UnitConversionsConfig = Complete<Static<typeof UnitConversionsSection>>;
export type RatiosConfig = Complete<Static<typeof RatiosSection>>;
export type FallbacksConfig = Complete<Static<typeof FallbacksSection>>;
export interface AnalyticsSections {
  pricing: PricingConfig;
  consumption: ConsumptionConfig;
  thresholds: ThresholdsConfig;
  unitConversions: UnitConversionsConfig;
  ratios: RatiosConfig;
  fallbacks: FallbacksConfig;
}

const defaultsOf = (schema: TObject): Record<string, unknown> =>
  Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, structuredClone((v as { default: unknown }).default)]));

/** The defaults of every section, read from the schemas above. */
export const ANALYTICS_DEFAULTS = Object.fromEntries(ANALYTICS_SECTIONS.map((s) => [s, defaultsOf(SECTION_SCHEMAS[s])])) as unknown as AnalyticsSections;

/** Fields of one section that must keep an order (low ≤ high); a change that breaks one is refused with 400. */
export const ORDERED_FIELDS: ReadonlyArray<{ section: AnalyticsSectionName; low: string; high: string }> = [
  { section: 'thresholds', low: 'waterPhMin', high: 'waterPhMax' },
  { section: 'thresholds', low: 'waterPhMin', high: 'waterPhPerformanceMin' },
  { section: 'thresholds', low: 'humidityMinPct', high: 'humidityMaxPct' },
  { section: 'thresholds', low: 'waterFeedRatioMin', high: 'waterFeedRatioMax' },
  { section: 'thresholds', low: 'coIdealMaxPpm', high: 'coHarmfulPpm' },
  { section: 'thresholds', low: 'co2MaxPpm', high: 'co2AscitesRiskPpm' },
  { section: 'thresholds', low: 'sensorStaleFactor', high: 'sensorOfflineFactor' },
  { section: 'consumption', low: 'layerWaterMlPerBirdPerDay', high: 'layerWaterMlPerBirdPerDayHot' },
];

/**
 * Fields that stand for a legal limit: a farm may set them stricter, never laxer (a change past the law is
 * refused with 400 naming the limit and its source).
 */
export const LEGAL_LIMITS: ReadonlyArray<{ section: AnalyticsSectionName; field: string; min?: number; max?: number; source: string }> = [
  { section: 'thresholds', field: 'minDarkHours', min: 6, source: 'Council Directive 2007/43/EC, Annex I, point 6' },
  { section: 'thresholds', field: 'layerMaxHensPerM2', max: 9, source: 'Council Directive 1999/74/EC, Art. 4(1)(4)' },
];

// ---------------------------------------------------------------------------------------------------
// Requests

export const updateAnalyticsConfigBody = Type.Object(
  {
    pricing: Type.Optional(PricingSection),
    consumption: Type.Optional(ConsumptionSection),
    thresholds: Type.Optional(ThresholdsSection),
    unitConversions: Type.Optional(UnitConversionsSection),
    ratios: Type.Optional(RatiosSection),
    fallbacks: Type.Optional(FallbacksSection),
    version: Type.Optional(ExpectedVersion),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    $id: 'UpdateAnalyticsConfigBody',
    description: 'The sections to replace (any of the six); omitted fields of a named section take their defaults, sections not named keep their values',
  },
);
export type UpdateAnalyticsConfigBody = Static<typeof updateAnalyticsConfigBody>;

export const updateThresholdsBody = Type.Object(
  { ...ThresholdsSection.properties, version: Type.Optional(ExpectedVersion) },
  { additionalProperties: false, $id: 'UpdateThresholdsBody', description: 'The thresholds section only (omitted fields take their defaults)' },
);
export type UpdateThresholdsBody = Static<typeof updateThresholdsBody>;

export const analyticsConfigHistoryQuery = Type.Object(pageQueryProperties, { additionalProperties: false, $id: 'AnalyticsConfigHistoryQuery' });
export type AnalyticsConfigHistoryQuery = Static<typeof analyticsConfigHistoryQuery>;

// ---------------------------------------------------------------------------------------------------
// Responses

/** A field as answered: a nested object (the significance per bird type) with every field present too. */
const answered = (v: TSchema): TSchema => {
  const o = v as TSchema & { properties?: Record<string, TSchema> };
  if (o.type !== 'object' || !o.properties) return Type.Unsafe({ ...o });
  return Type.Unsafe({
    ...o,
    properties: Object.fromEntries(Object.entries(o.properties).map(([k, p]) => [k, answered(p)])),
    required: Object.keys(o.properties),
  });
};

/** A section as answered: every field present (the request schema's fields, none optional). */
const completeSchema = (schema: TObject, $id: string) =>
  Type.Object(Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, answered(v)])), {
    $id,
    description: schema.description,
  });

/** The pricing section as answered (every field present): also a farm's effective pricing (schemas/farm-pricing.ts). */
export const PricingDto = completeSchema(PricingSection, 'Pricing');

const CompleteSections = Type.Object(
  {
    pricing: PricingDto,
    consumption: completeSchema(ConsumptionSection, 'Consumption'),
    thresholds: completeSchema(ThresholdsSection, 'Thresholds'),
    unitConversions: completeSchema(UnitConversionsSection, 'UnitConversions'),
    ratios: completeSchema(RatiosSection, 'Ratios'),
    fallbacks: completeSchema(FallbacksSection, 'Fallbacks'),
  },
  { description: 'The six sections, every field present' },
);

export const AnalyticsConfigDto = Type.Object(
  {
    ...CompleteSections.properties,
    version: Type.Integer({ minimum: 0, description: 'Optimistic concurrency version (also the ETag); 0 while the defaults have never been changed' }),
    updatedAt: Type.Union([Timestamp, Type.Null()], { description: 'Last change (null: the defaults)' }),
    updatedBy: Type.Union([Type.String(), Type.Null()], { description: 'User id of the last change' }),
  },
  { $id: 'AnalyticsConfig' },
);

export const AnalyticsConfigVersionDto = Type.Object(
  {
    version: Type.Integer({ minimum: 1 }),
    changedSections: Type.Array(Type.String(), { description: 'Sections whose values this version changed' }),
    updatedAt: Timestamp,
    updatedBy: Type.Union([Type.String(), Type.Null()]),
    requestId: Type.Union([Type.String(), Type.Null()]),
    config: CompleteSections,
  },
  { $id: 'AnalyticsConfigVersion' },
);

export const AnalyticsConfigResponse = Success(AnalyticsConfigDto);
export const AnalyticsConfigHistoryResponse = ListOf(AnalyticsConfigVersionDto);
