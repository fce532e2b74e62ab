/**
 * The words the interface and the domain share: one owner, plain constants (no schema library), so the
 * request schemas, the pure domain and every other layer import them from here and nothing imports back.
 */

export const ROLES = ['admin', 'manager', 'worker', 'veterinarian', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const BIRD_TYPES = ['broiler', 'layer', 'breeder'] as const;
export type BirdType = (typeof BIRD_TYPES)[number];

/** Production phases of a flock, which are also the stages of a daily record's mandatory fields. */
export const PHASES = ['brooding', 'growing', 'finishing', 'rearing', 'laying', 'molting'] as const;
export type Phase = (typeof PHASES)[number];

export const WEIGHT_METHODS = ['manual_sample', 'automatic_scale', 'estimated'] as const;
export type WeightMethod = (typeof WEIGHT_METHODS)[number];
export const CONFIDENCES = ['high', 'medium', 'low'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

/** Lightest plausible bird, g: a chick hatches at 30–45 g; a reading below 1 g is no bird (and its square would not store). */
export const MIN_PLAUSIBLE_GRAMS = 1;
/** Heaviest plausible bird, g (a Ross 308 male at 63 days is ≈ 5 kg; mature broiler breeder males ≈ 5–6 kg). */
export const MAX_PLAUSIBLE_GRAMS = 10_000;

/** How many flocks or cycles one comparison takes. */
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 10;

/** The cycle KPIs flocks can be ranked and compared by (their definitions: the flock-analytics KPI catalogue). */
export const RANKABLE_KPIS = [
  'fcr',
  'livabilityPct',
  'mortalityPct',
  'epef',
  'adg',
  'avgWeight',
  'henHousedEggs',
  'feedPerEgg',
  'feedPerDozenEggs',
  'henDayPct',
  'eggMassGrams',
  'feedPerKgEgg',
] as const;
export type RankableKpi = (typeof RANKABLE_KPIS)[number];

/** The rules of the anomaly detection (each a metric a day can break). */
export const ANOMALY_METRICS = [
  'dailyMortality',
  'cumulativeMortality',
  'waterFeedRatio',
  'lowWaterIntake',
  'henDayDrop',
  'weightBelowStandard',
  'fcrAboveStandard',
  'lowUniformity',
  'crackedEggs',
  'waterPh',
] as const;
export type AnomalyMetric = (typeof ANOMALY_METRICS)[number];

/** IoT: what a registered device is (its kind decides the metrics it may report unless it is `multi`). */
export const DEVICE_KINDS = ['climate', 'air_quality', 'water_meter', 'feed_silo', 'light', 'pressure', 'scale', 'multi'] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

/**
 * What a sensor frame may carry, named with its unit. `waterLitersTotal` is a counter (a meter's running
 * total); `siloKg` the load cells' weight of feed in the silo; `birdWeightGrams` one weighing of a bird scale.
 */
export const SENSOR_METRICS = [
  'temperatureC',
  'humidityPct',
  'nh3Ppm',
  'co2Ppm',
  'coPpm',
  'staticPressurePa',
  'lux',
  'waterLitersTotal',
  'siloKg',
  'birdWeightGrams',
] as const;
export type SensorMetric = (typeof SENSOR_METRICS)[number];

/** A device's health from its last seen reading: stale after 2× its reporting interval, offline after 4×. */
export const DEVICE_STATUSES = ['online', 'stale', 'offline'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

export const READING_RESOLUTIONS = ['raw', 'hour', 'day'] as const;
export type ReadingResolution = (typeof READING_RESOLUTIONS)[number];

/** Readings in one ingestion batch (HTTP) or one rule message (IoT Core). */
export const MAX_READINGS_PER_BATCH = 500;

/** Operations: an incident's lifecycle (PagerDuty's triggered → acknowledged → resolved, then closed once reviewed). */
export const INCIDENT_STATUSES = ['triggered', 'acknowledged', 'resolved', 'closed'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
export const INCIDENT_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type IncidentSeverity = (typeof INCIDENT_SEVERITIES)[number];
/** `disease_suspicion` puts the farm under a movement restriction until the incident is closed. */
export const INCIDENT_CATEGORIES = ['disease_suspicion', 'equipment', 'power', 'water', 'feed', 'climate', 'biosecurity', 'welfare', 'other'] as const;
export type IncidentCategory = (typeof INCIDENT_CATEGORIES)[number];
export const INCIDENT_ACTIONS = ['acknowledge', 'resolve', 'close'] as const;
export type IncidentAction = (typeof INCIDENT_ACTIONS)[number];

/** Rules: what a rule computes over its window, how bad a firing is, and what it does. */
export const RULE_AGGREGATIONS = ['avg', 'min', 'max', 'sum', 'last', 'change', 'slope'] as const;
export type RuleAggregation = (typeof RULE_AGGREGATIONS)[number];
export const RULE_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type RuleSeverity = (typeof RULE_SEVERITIES)[number];
export const RULE_ACTIONS = ['raise_anomaly', 'open_incident'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];
/** The longest cooldown of a rule: 30 days, in minutes. */
export const MAX_COOLDOWN_MINUTES = 43_200;
/** How deep a json-logic condition may be nested: objects and arrays, the condition itself being level 1 (its schema's `x-maxDepth`). */
export const JSON_LOGIC_MAX_DEPTH = 12;
export const RULE_SHORT_OPS = ['>', '>=', '<', '<=', 'outside', 'inside'] as const;
export type RuleShortOp = (typeof RULE_SHORT_OPS)[number];

/** Anomalies: open → acknowledged → resolved | dismissed (a repeat firing updates the open one). */
export const ANOMALY_STATUSES = ['open', 'acknowledged', 'resolved', 'dismissed'] as const;
export type AnomalyStatus = (typeof ANOMALY_STATUSES)[number];
export const ANOMALY_SOURCES = ['rule', 'detector', 'schedule'] as const;
export type AnomalySource = (typeof ANOMALY_SOURCES)[number];
export const ANOMALY_ACTIONS = ['acknowledge', 'resolve', 'dismiss'] as const;
export type AnomalyAction = (typeof ANOMALY_ACTIONS)[number];
/** The statistical detectors (docs/detections.md, "The detectors"). */
export const DETECTORS = ['robust_z', 'ewma', 'cusum'] as const;
export type Detector = (typeof DETECTORS)[number];
