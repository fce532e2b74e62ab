import { Type, type Static } from '@sinclair/typebox';
import { ExpectedVersion, ListFarmId, ListOf, pageQueryProperties, StringEnum, Success, Timestamp, Ulid, UlidOf, PeriodFrom, PeriodTo } from './common.js';
import { DEVICE_KINDS, DEVICE_STATUSES, MAX_READINGS_PER_BATCH, READING_RESOLUTIONS, SENSOR_METRICS } from './vocabulary.js';

/**
 * IoT (`/api/v1/iot`): the device registry, sensor ingestion (HTTP and the IoT Core rule) and the reads
 * of rollups and house conditions. Request schemas (…Body, …Query, …Params) are compiled into validators;
 * the rest describe responses. The rule's message (`telemetryEvent`) is checked by the same compiled code.
 */

const RecordId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const DeviceName = Type.String({ minLength: 1, maxLength: 120, pattern: '\\S', description: 'A name people recognise ("House 2 climate, front")' });
const ReportingInterval = Type.Integer({
  minimum: 60,
  maximum: 86_400,
  description: 'Seconds between the device’s uploads (60–86400, default 60): stale after 2×, offline after 4× without data',
});
export const DeviceKind = StringEnum(DEVICE_KINDS, {
  description:
    'climate (temperatureC, humidityPct), air_quality (nh3Ppm, co2Ppm, coPpm), water_meter (waterLitersTotal), feed_silo (siloKg), light (lux), ' +
    'pressure (staticPressurePa), scale (birdWeightGrams) or multi (any of them)',
});
export const SensorMetricName = StringEnum(SENSOR_METRICS, {
  description:
    'temperatureC °C, humidityPct % RH, nh3Ppm, co2Ppm, coPpm (ppm), staticPressurePa Pa, lux, waterLitersTotal (a meter’s running total, l), siloKg (feed in the silo, kg), birdWeightGrams (one weighing of a bird scale, g)',
});
const Metrics = Type.Array(SensorMetricName, {
  minItems: 1,
  maxItems: SENSOR_METRICS.length,
  uniqueItems: true,
  description: 'The metrics the device reports (default: those of its kind); a frame with another metric is rejected per reading',
});
const DeviceStatus = StringEnum(DEVICE_STATUSES, {
  description: 'From the newest reading’s time: online, stale after 2× the reporting interval without data, offline after 4× (or never seen)',
});

export const deviceParams = Type.Object({ deviceId: UlidOf('Id of the device') }, { additionalProperties: false, $id: 'DeviceParams' });
export type DeviceParams = Static<typeof deviceParams>;

export const houseConditionsParams = Type.Object(
  { houseId: Type.String({ ...RecordId, description: 'Id of the house' }) },
  { additionalProperties: false, $id: 'HouseConditionsParams' },
);
export type HouseConditionsParams = Static<typeof houseConditionsParams>;

export const houseConditionsQuery = Type.Object(
  { farmId: Type.Optional(Type.String({ ...RecordId, description: 'The farm of the house; may be left out (the house tells its farm)' })) },
  { additionalProperties: false, $id: 'HouseConditionsQuery' },
);
export type HouseConditionsQuery = Static<typeof houseConditionsQuery>;

export const createDeviceBody = Type.Object(
  {
    houseId: Type.String({ ...RecordId, description: 'The house the device is in' }),
    farmId: Type.Optional(Type.String({ ...RecordId, description: 'The farm of the house; may be left out (the house tells its farm)' })),
    kind: DeviceKind,
    name: DeviceName,
    metrics: Type.Optional(Metrics),
    reportingIntervalSeconds: Type.Optional(ReportingInterval),
  },
  { additionalProperties: false, $id: 'CreateDeviceBody' },
);
export type CreateDeviceBody = Static<typeof createDeviceBody>;

export const updateDeviceBody = Type.Object(
  {
    name: Type.Optional(DeviceName),
    houseId: Type.Optional(Type.String({ ...RecordId, description: 'Move the device to another house of its farm' })),
    metrics: Type.Optional(Metrics),
    reportingIntervalSeconds: Type.Optional(ReportingInterval),
    version: Type.Optional(ExpectedVersion),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateDeviceBody' },
);
export type UpdateDeviceBody = Static<typeof updateDeviceBody>;

export const listDevicesQuery = Type.Object(
  {
    farmId: ListFarmId('`houseId`'),
    houseId: Type.Optional(Type.String({ ...RecordId, description: 'Only the devices of this house' })),
    kind: Type.Optional(DeviceKind),
    status: Type.Optional(DeviceStatus),
    ...pageQueryProperties,
  },
  { additionalProperties: false, $id: 'ListDevicesQuery' },
);
export type ListDevicesQuery = Static<typeof listDevicesQuery>;

/** One frame's values: any of the metrics, each a finite number (physical ranges are checked per reading). */
const value = () => Type.Optional(Type.Number());
const FrameMetrics = Type.Object(
  {
    temperatureC: value(),
    humidityPct: value(),
    nh3Ppm: value(),
    co2Ppm: value(),
    coPpm: value(),
    staticPressurePa: value(),
    lux: value(),
    waterLitersTotal: value(),
    siloKg: value(),
    birdWeightGrams: value(),
  } satisfies Record<(typeof SENSOR_METRICS)[number], unknown>,
  { additionalProperties: false, minProperties: 1, description: 'The values of one frame by metric name (at least one)' },
);
export const SensorReading = Type.Object(
  {
    ts: Type.String({
      format: 'date-time',
      description: 'When the values were measured, ISO 8601 with a UTC offset (stored in UTC, millisecond precision); the same device and ts is one reading',
    }),
    metrics: FrameMetrics,
  },
  { additionalProperties: false },
);
export type SensorReading = Static<typeof SensorReading>;

export const ingestBody = Type.Object(
  { readings: Type.Array(SensorReading, { minItems: 1, maxItems: MAX_READINGS_PER_BATCH, description: `1–${MAX_READINGS_PER_BATCH} frames of one device` }) },
  { additionalProperties: false, $id: 'IngestBody' },
);
export type IngestBody = Static<typeof ingestBody>;

/**
 * What the IoT Core rule hands the function: the device's message (one frame `{ts, metrics}`, or a batch
 * `{readings}`) plus what the rule's SQL adds: `farmId` and `deviceId` from the topic, `receivedAt` (ms).
 */
export const telemetryEventBody = Type.Object(
  {
    farmId: Type.String({ ...RecordId }),
    deviceId: Ulid,
    receivedAt: Type.Integer({ minimum: 0, description: 'timestamp() of the rule: when IoT Core received the message, ms since the epoch' }),
    ts: Type.Optional(SensorReading.properties.ts),
    metrics: Type.Optional(FrameMetrics),
    readings: Type.Optional(ingestBody.properties.readings),
  },
  { additionalProperties: true, $id: 'TelemetryEventBody' },
);
export type TelemetryEventBody = Static<typeof telemetryEventBody>;

export const readingsQuery = Type.Object(
  {
    from: PeriodFrom,
    to: PeriodTo,
    resolution: Type.Optional(
      StringEnum(READING_RESOLUTIONS, {
        default: 'hour',
        description: 'raw (each reading, a period of at most 2 days), hour or day (UTC buckets; at most 90 days of hours, 3 years of days). Default hour',
      }),
    ),
    metric: Type.Optional(SensorMetricName),
  },
  { additionalProperties: false, $id: 'ReadingsQuery' },
);
export type ReadingsQuery = Static<typeof readingsQuery>;

// ---------------------------------------------------------------------------------------------------
// Responses

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T, description: string) => Type.Union([t, Type.Null()], { description });

export const DeviceDto = Type.Object(
  {
    id: Ulid,
    farmId: Type.String(),
    houseId: Type.String(),
    kind: DeviceKind,
    name: Type.String(),
    metrics: Type.Array(SensorMetricName),
    reportingIntervalSeconds: Type.Integer(),
    status: DeviceStatus,
    lastSeen: Nullable(Timestamp, 'The newest reading’s time (never later than its arrival), to within a minute; null until the first reading'),
    keyIssuedAt: Type.String({ format: 'date-time', description: 'When the device’s current key was issued (registration or the last secret rotation)' }),
    createdBy: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    version: Type.Integer(),
  },
  { $id: 'Device' },
);
export const DeviceWithSecret = Type.Composite(
  [
    DeviceDto,
    Type.Object({
      secret: Type.String({ description: 'Shown once: stored only as a hash. Devices send `X-Device-Key: <id>.<secret>`' }),
      deviceKey: Type.String({ description: 'The whole `X-Device-Key` value: `<id>.<secret>`' }),
    }),
  ],
  { $id: 'DeviceWithSecret' },
);
export const DeviceResponse = Success(DeviceDto);
export const DeviceWithSecretResponse = Success(DeviceWithSecret);
export const DeviceListResponse = ListOf(DeviceDto);

export const IngestResult = Type.Object(
  {
    accepted: Type.Integer({ description: 'Readings stored and counted in the rollups' }),
    duplicates: Type.Integer({ description: 'Readings whose device and ts were already stored (also repeats within the batch): not stored twice' }),
    rejected: Type.Array(
      Type.Object({ index: Type.Integer({ description: 'Position in `readings`' }), error: Type.String({ description: 'Why this reading was not stored' }) }),
    ),
  },
  { $id: 'IngestResult' },
);
export const IngestResponse = Success(IngestResult);

const Stat = Type.Object({
  count: Type.Integer(),
  sum: Type.Number({ description: 'Sum of the values (avg × count, unrounded); of a counter (waterLitersTotal), a sum of running totals: see `used`' }),
  min: Type.Number(),
  max: Type.Number(),
  avg: Type.Number(),
  first: Type.Number({ description: 'Value of the earliest reading in the bucket' }),
  last: Type.Number({ description: 'Value of the latest reading in the bucket' }),
  used: Type.Optional(
    Type.Number({
      minimum: 0,
      description:
        'Counter metrics only (waterLitersTotal: litres used): the counter’s increase over the bucket, the bucket’s last reading minus the last reading of the bucket right before (the previous hour or day), else minus the bucket’s first reading. A drop between the two (a reset or a replaced meter) counts from the bucket’s first reading; never negative',
    }),
  ),
});
export const ReadingBucket = Type.Object(
  {
    start: Timestamp,
    metrics: Type.Record(Type.String(), Stat, { description: 'By metric name: count, min, max, avg (and first/last) of the bucket; a counter’s `used` too' }),
  },
  { $id: 'ReadingBucket' },
);
export const RawReading = Type.Object(
  { ts: Timestamp, metrics: Type.Record(Type.String(), Type.Number(), { description: 'The values of the frame by metric name' }) },
  { $id: 'RawReading' },
);
export const ReadingsResponse = Success(
  Type.Object({
    deviceId: Ulid,
    resolution: StringEnum(READING_RESOLUTIONS),
    from: Timestamp,
    to: Timestamp,
    units: Type.Record(Type.String(), Type.String(), { description: 'Unit of each metric' }),
    buckets: Type.Array(ReadingBucket, { description: 'hour and day: one per UTC bucket with data, oldest first' }),
    readings: Type.Array(RawReading, { description: 'raw: every reading of the period, oldest first' }),
  }),
);

export const ConditionDto = Type.Object(
  {
    metric: SensorMetricName,
    value: Type.Number(),
    unit: Type.String(),
    ts: Timestamp,
    ageSeconds: Type.Integer({ description: 'Seconds since the reading was measured' }),
    deviceId: Ulid,
    status: StringEnum(['ok', 'low', 'high', 'unchecked'] as const, {
      description:
        'Against the analytics thresholds (temperature against the age curve of the house’s flock): ok, low, high, or unchecked (no threshold applies)',
    }),
    expected: Type.Union([Type.Object({ min: Type.Union([Type.Number(), Type.Null()]), max: Type.Union([Type.Number(), Type.Null()]) }), Type.Null()], {
      description: 'The acceptable range used for the status (null when unchecked)',
    }),
    basis: Type.Union([Type.String(), Type.Null()], { description: 'Where the range comes from' }),
  },
  { $id: 'Condition' },
);
export const HouseConditionsResponse = Success(
  Type.Object({
    houseId: Type.String(),
    farmId: Type.String(),
    flock: Type.Union([Type.Object({ id: Type.String(), cycleId: Type.String(), birdType: Type.String(), ageDays: Type.Integer() }), Type.Null()], {
      description: 'The flock with an active cycle in the house (its age sets the temperature curve), or null',
    }),
    conditions: Type.Array(ConditionDto, { description: 'The latest value of each metric in the house (the newest across its devices)' }),
    devices: Type.Array(Type.Object({ id: Ulid, name: Type.String(), kind: DeviceKind, status: DeviceStatus, lastSeen: Type.Union([Timestamp, Type.Null()]) })),
  }),
);
