/**
 * Every key of the single table, in one place (docs/data-model.md has the access-pattern table).
 * Partition prefixes are uppercase; GSI1 is overloaded for the lists that need another order.
 */
export interface Key {
  PK: string;
  SK: string;
}

export const userKey = (id: string): Key => ({ PK: `USER#${id}`, SK: 'PROFILE' });
/** Uniqueness guard and login lookup: one item per lower-cased e-mail, holding the user id. */
export const emailKey = (email: string): Key => ({ PK: `EMAIL#${email}`, SK: 'EMAIL' });
/** Sign-in throttle items of an e-mail (known or not): one per client that tried it, one per window for all clients. */
export const LOGIN_THROTTLE_SK_PREFIX = 'LOGIN#';
export const loginClientKey = (email: string, client: string): Key => ({ PK: `EMAIL#${email}`, SK: `${LOGIN_THROTTLE_SK_PREFIX}CLIENT#${client}` });
export const loginAccountKey = (email: string, windowStart: number): Key => ({ PK: `EMAIL#${email}`, SK: `${LOGIN_THROTTLE_SK_PREFIX}ALL#${windowStart}` });
/** Marks a notice mailed to an address in one window (e.g. "an account exists"), so it goes at most once per window. */
export const emailNoticeKey = (email: string, kind: string, windowStart: number): Key => ({ PK: `EMAIL#${email}`, SK: `NOTICE#${kind}#${windowStart}` });
export const verificationTokenKey = (tokenHash: string): Key => ({ PK: `VERIFY#${tokenHash}`, SK: 'TOKEN' });
export const revokedTokenKey = (jti: string): Key => ({ PK: `REVOKED#${jti}`, SK: 'TOKEN' });
export const rateLimitKey = (limiter: string, client: string, windowStart: number): Key => ({
  PK: `RATE#${limiter}#${client}`,
  SK: `WINDOW#${windowStart}`,
});
export const auditKey = (id: string): Key => ({ PK: 'AUDIT', SK: id });
export const outboxKey = (id: string): Key => ({ PK: 'OUTBOX', SK: id });
/** Partitions that hold several kinds of items (queried by sort-key prefix). */
export const farmPartition = (farmId: string): string => `FARM#${farmId}`;
export const flockPartition = (flockId: string): string => `FLOCK#${flockId}`;
export const cyclePartition = (cycleId: string): string => `CYCLE#${cycleId}`;
/** Sort-key prefixes within those partitions. */
export const CYCLE_SK_PREFIX = 'CYCLE#';
export const MOVEMENT_SK_PREFIX = 'MOV#';
export const DAILY_SK_PREFIX = 'DAILY#';
export const FEED_STOCK_SK_PREFIX = 'STOCK#FEED#';

export const farmKey = (id: string): Key => ({ PK: farmPartition(id), SK: 'META' });
export const houseKey = (farmId: string, houseId: string): Key => ({ PK: farmPartition(farmId), SK: `HOUSE#${houseId}` });
/** Prefix of the house items in a farm's partition (one Query lists a farm's houses). */
export const HOUSE_SK_PREFIX = 'HOUSE#';
/** Uniqueness guard of a house name within its farm (normalized name), holding the house id; SK never starts with HOUSE#. */
export const houseNameKey = (farmId: string, normalizedName: string): Key => ({ PK: `FARM#${farmId}`, SK: `HOUSENAME#${normalizedName}` });
export const defaultFarmKey = (): Key => ({ PK: 'CONFIG', SK: 'DEFAULT_FARM' });
export const healthKey = (): Key => ({ PK: 'CONFIG', SK: 'HEALTH' });
/** The analytics configuration in force, and one item per version of it (history, newest first by SK). */
export const analyticsConfigKey = (): Key => ({ PK: 'CONFIG', SK: 'ANALYTICS' });
export const ANALYTICS_CONFIG_HISTORY_PARTITION = 'CONFIG#ANALYTICS';
export const analyticsConfigVersionKey = (version: number): Key => ({ PK: ANALYTICS_CONFIG_HISTORY_PARTITION, SK: `V#${String(version).padStart(10, '0')}` });
/** A farm's pricing override in force (in the farm's partition), and one item per version of it (history, newest first by SK). */
export const FARM_PRICING_SK = 'PRICING';
export const farmPricingKey = (farmId: string): Key => ({ PK: farmPartition(farmId), SK: FARM_PRICING_SK });
export const farmPricingHistoryPartition = (farmId: string): string => `FARM#${farmId}#PRICING`;
export const farmPricingVersionKey = (farmId: string, version: number): Key => ({
  PK: farmPricingHistoryPartition(farmId),
  SK: `V#${String(version).padStart(10, '0')}`,
});

/** GSI1 partitions. */
export const gsi1 = {
  users: { GSI1PK: 'USERS' },
  farms: { GSI1PK: 'FARMS' },
  auditOf: (targetId: string) => ({ GSI1PK: `AUDIT#${targetId}` }),
} as const;

// Farm core: flocks, cycles, the movement ledger, stocks, daily rollups, idempotency.
export const flockKey = (id: string): Key => ({ PK: flockPartition(id), SK: 'META' });
export const cycleKey = (flockId: string, cycleId: string): Key => ({ PK: flockPartition(flockId), SK: `${CYCLE_SK_PREFIX}${cycleId}` });
/** GSI2 of a cycle item: finds a cycle (its flock and farm) from its id alone (a list that names only `cycleId`). */
export const cycleLocator = (cycleId: string) => ({ GSI2PK: `CYCLEREF#${cycleId}`, GSI2SK: 'CYCLE' });
export const movementKey = (cycleId: string, movementId: string): Key => ({ PK: cyclePartition(cycleId), SK: `${MOVEMENT_SK_PREFIX}${movementId}` });
/** Prefix of a cycle's daily rollups (one item per day with movements: the day's counters). */
export const DAY_SK_PREFIX = 'DAY#';
export const dayRollupKey = (cycleId: string, date: string): Key => ({ PK: cyclePartition(cycleId), SK: `${DAY_SK_PREFIX}${date}` });
/** The attributes of a cycle day that keep the house's climate hours, one per sensor and UTC hour of the day's date: `sensorClimate.<deviceId>.<HH>`. */
export const CLIMATE_HOUR_ATTR = 'sensorClimate';
/** A cycle's egg lots, one per laying day (shared/domain/eggs/lots.ts), in the cycle's partition sorted by that day: oldest first is one Query. */
export const EGG_LOT_SK_PREFIX = 'EGGLOT#';
export const eggLotKey = (cycleId: string, laidOn: string): Key => ({ PK: cyclePartition(cycleId), SK: `${EGG_LOT_SK_PREFIX}${laidOn}` });
export const feedStockKey = (farmId: string, feedType: string): Key => ({ PK: farmPartition(farmId), SK: `${FEED_STOCK_SK_PREFIX}${feedType}` });
export const eggStockKey = (farmId: string): Key => ({ PK: `FARM#${farmId}`, SK: 'STOCK#EGGS' });
export const MEDICINE_STOCK_SK_PREFIX = 'STOCK#MEDICINE#';
/** A farm's medicine stock of one product in one unit (the unit first: it never holds a '#'). */
export const medicineStockKey = (farmId: string, product: string, unit: string): Key => ({
  PK: farmPartition(farmId),
  SK: `${MEDICINE_STOCK_SK_PREFIX}${unit}#${product}`,
});
export const idempotencyKey = (userId: string, key: string): Key => ({ PK: `IDEMPOTENCY#${userId}#${key}`, SK: 'RESPONSE' });
export const flocksOfFarm = (farmId: string) => ({ GSI1PK: `FLOCKS#${farmId}` });
export const movementsOfCycle = (cycleId: string) => ({ GSI1PK: `MOVEMENTS#${cycleId}` });
export const movementsOfFarm = (farmId: string) => ({ GSI2PK: `MOVEMENTS#${farmId}` });
export const dailyRecordKey = (cycleId: string, date: string): Key => ({ PK: cyclePartition(cycleId), SK: `${DAILY_SK_PREFIX}${date}` });
/** Prefix of a farm's stock items (`STOCK#FEED#<feedType>`, `STOCK#EGGS`, `STOCK#MEDICINE#<unit>#<product>`): one Query reads a farm's whole stock. */
export const STOCK_SK_PREFIX = 'STOCK#';
// Weights: one item per weighing session in the cycle's partition, sorted by date (then method, then id).
export const WEIGHT_SK_PREFIX = 'WEIGHT#';
/** A copy of each feed_delivery movement's supplier facts, so supplier reliability reads deliveries, not every movement. */
export const DELIVERY_SK_PREFIX = 'DELIVERY#';
export const deliveryKey = (cycleId: string, movementId: string): Key => ({ PK: cyclePartition(cycleId), SK: `${DELIVERY_SK_PREFIX}${movementId}` });
/** A delivery booked on the farm's stock without a cycle (listed with the cycle movements on GSI2 `MOVEMENTS#<farmId>`). */
export const farmMovementKey = (farmId: string, movementId: string): Key => ({ PK: farmPartition(farmId), SK: `${MOVEMENT_SK_PREFIX}${movementId}` });
/** GSI1 of a farm movement: finds its farm from its id alone (`/api/v1/inventory/movements/{movementId}` without `farmId`). */
export const farmMovementLocator = (movementId: string) => ({ GSI1PK: `FARMMOVEMENT#${movementId}`, GSI1SK: 'MOVEMENT' });
/** The supplier facts of a feed delivery booked on the farm (the farm's `DELIVERY#` copies, beside each cycle's). */
export const farmDeliveryKey = (farmId: string, movementId: string): Key => ({ PK: farmPartition(farmId), SK: `${DELIVERY_SK_PREFIX}${movementId}` });
/** Medications with a withdrawal period, in their farm's partition by the period's last day (withdrawals still running = one range Query). */
export const WITHDRAWAL_SK_PREFIX = 'WITHDRAWAL#';
export const withdrawalKey = (farmId: string, endDate: string, movementId: string): Key => ({
  PK: farmPartition(farmId),
  SK: `${WITHDRAWAL_SK_PREFIX}${endDate}#${movementId}`,
});
/** Drinking-water quality readings of a cycle, by date (their pH values are also kept on the day's rollup). */
export const WATER_READING_SK_PREFIX = 'WATERQ#';
export const waterReadingKey = (cycleId: string, date: string, id: string): Key => ({
  PK: cyclePartition(cycleId),
  SK: `${WATER_READING_SK_PREFIX}${date}#${id}`,
});
/** `id` is the record's ULID (manual samples) or the scale's device id (one session per device and day). */
export const weightKey = (cycleId: string, date: string, method: string, id: string): Key => ({
  PK: cyclePartition(cycleId),
  SK: `${WEIGHT_SK_PREFIX}${date}#${method}#${id}`,
});

// Optimization recommendations: one item each, listed per farm (GSI1) and per flock (GSI2), newest first.
export const recommendationKey = (id: string): Key => ({ PK: `REC#${id}`, SK: 'META' });
export const recommendationsOfFarm = (farmId: string) => ({ GSI1PK: `RECS#${farmId}` });
export const recommendationsOfFlock = (flockId: string) => ({ GSI2PK: `RECS#${flockId}` });
/** One system proposal per analytics rule and cycle: this item holds the recommendation's id. */
export const proposalKey = (cycleId: string, rule: string): Key => ({ PK: cyclePartition(cycleId), SK: `PROPOSAL#${rule}` });

/** Service metrics per UTC day (e.g. `METRICS#RATE_LIMITED` / `DAY#2026-11-22`), kept 90 days. */
export const metricsKey = (name: string, date: string): Key => ({ PK: `METRICS#${name}`, SK: `DAY#${date}` });

// IoT: devices, their rollups and raw readings (docs/data-model.md, "Sensors").
/** A device's partition: META (the registration), HOUR#/SEEN#/DAY# (its rollups and the readings they counted). */
export const devicePartition = (deviceId: string): string => `DEVICE#${deviceId}`;
export const deviceKey = (deviceId: string): Key => ({ PK: devicePartition(deviceId), SK: 'META' });
/** GSI1: a farm's devices by house (`<houseId>#<deviceId>`). */
export const devicesOfFarm = (farmId: string) => ({ GSI1PK: `DEVICES#${farmId}` });
export const deviceOfFarmSortKey = (houseId: string, deviceId: string): string => `${houseId}#${deviceId}`;
/** GSI2: devices whose health changes at `<ISO time>` if they stay silent (the health job reads what is due). */
export const DEVICES_DUE = { GSI2PK: 'DEVICES_DUE' } as const;
export const deviceDueSortKey = (dueAtIso: string, deviceId: string): string => `${dueAtIso}#${deviceId}`;
export const HOUR_ROLLUP_SK_PREFIX = 'HOUR#';
export const DAY_ROLLUP_SK_PREFIX = 'DAY#';
export const hourRollupKey = (deviceId: string, hour: string): Key => ({ PK: devicePartition(deviceId), SK: `${HOUR_ROLLUP_SK_PREFIX}${hour}` });
/** The readings an hour's rollup counted (ms offsets within the hour) and its version: what makes ingestion exactly-once. */
export const hourClaimsKey = (deviceId: string, hour: string): Key => ({ PK: devicePartition(deviceId), SK: `SEEN#${hour}` });
export const deviceDayKey = (deviceId: string, day: string): Key => ({ PK: devicePartition(deviceId), SK: `${DAY_ROLLUP_SK_PREFIX}${day}` });
/** Raw readings: one partition per device and UTC day, packs of a batch's readings of one hour sorted by their first reading (`<ISO time>#<ulid>`; TTL). */
export const rawReadingsPartition = (deviceId: string, day: string): string => `READINGS#${deviceId}#${day}`;
export const rawReadingsKey = (deviceId: string, day: string, packSortKey: string): Key => ({ PK: rawReadingsPartition(deviceId, day), SK: packSortKey });
/** Threshold breaches of a farm's sensors, one item per device, metric and UTC hour (what rules and anomalies pick up). */
export const breachesPartition = (farmId: string): string => `BREACHES#${farmId}`;
export const breachKey = (farmId: string, hour: string, deviceId: string, metric: string): Key => ({
  PK: breachesPartition(farmId),
  SK: `${hour}#${deviceId}#${metric}`,
});

// Operations: incidents, their append-only timelines, dedup keys and movement restrictions.
export const incidentPartition = (incidentId: string): string => `INCIDENT#${incidentId}`;
export const incidentKey = (incidentId: string): Key => ({ PK: incidentPartition(incidentId), SK: 'META' });
export const INCIDENT_EVENT_SK_PREFIX = 'EVENT#';
export const incidentEventKey = (incidentId: string, eventId: string): Key => ({
  PK: incidentPartition(incidentId),
  SK: `${INCIDENT_EVENT_SK_PREFIX}${eventId}`,
});
/** GSI1: a farm's incidents, newest first by `<createdAt>#<id>`. */
export const incidentsOfFarm = (farmId: string) => ({ GSI1PK: `INCIDENTS#${farmId}` });
/** While an incident with this dedup key is open (triggered or acknowledged): holds its id. */
export const incidentDedupKey = (farmId: string, dedupKey: string): Key => ({ PK: farmPartition(farmId), SK: `INCIDENTDEDUP#${dedupKey}` });
/** While a disease-suspicion incident is not closed: the farm's movements are restricted (transfers check it). */
export const RESTRICTION_SK_PREFIX = 'RESTRICTION#';
export const restrictionKey = (farmId: string, incidentId: string): Key => ({ PK: farmPartition(farmId), SK: `${RESTRICTION_SK_PREFIX}${incidentId}` });

// Rules: user-defined alarms over a calculation or a sensor metric (docs/data-model.md, "Rules").
export const rulePartition = (ruleId: string): string => `RULE#${ruleId}`;
export const ruleKey = (ruleId: string): Key => ({ PK: rulePartition(ruleId), SK: 'META' });
/** The rule's evaluation state per target (`flock:<id>` or `house:<id>`): its own item, so evaluation never bumps the rule's version. */
export const RULE_STATE_SK_PREFIX = 'STATE#';
export const ruleStateKey = (ruleId: string, target: string): Key => ({ PK: rulePartition(ruleId), SK: `${RULE_STATE_SK_PREFIX}${target}` });
/** The statistical detectors' progress on a cycle: the last day they judged (a day is judged once). */
export const detectorStateKey = (flockId: string, cycleId: string): Key => ({ PK: flockPartition(flockId), SK: `DETECTORS#${cycleId}` });
/** Once the default rules of a farm are written (never twice, even if the farm's manager deletes them all). */
export const defaultRulesMarkerKey = (farmId: string): Key => ({ PK: farmPartition(farmId), SK: 'RULES#DEFAULTS' });
/** GSI1: a farm's rules, oldest first by `<createdAt>#<id>`. */
export const rulesOfFarm = (farmId: string) => ({ GSI1PK: `RULES#${farmId}` });
/** GSI2: every enabled rule, by farm (`<farmId>#<ruleId>`): what the rule job walks. */
export const ENABLED_RULES = { GSI2PK: 'RULES_ENABLED' } as const;

// Anomalies: persisted detections of rules and detectors, one per dedup key while open.
export const anomalyPartition = (anomalyId: string): string => `ANOMALY#${anomalyId}`;
export const anomalyKey = (anomalyId: string): Key => ({ PK: anomalyPartition(anomalyId), SK: 'META' });
/** GSI1: a farm's anomalies, newest first by `<firstSeenAt>#<id>`. */
export const anomaliesOfFarm = (farmId: string) => ({ GSI1PK: `ANOMALIES#${farmId}` });
/** While an anomaly with this dedup key is open or acknowledged: holds its id (a repeat firing updates that anomaly). */
export const anomalyDedupKey = (farmId: string, dedupKey: string): Key => ({ PK: farmPartition(farmId), SK: `ANOMALYDEDUP#${dedupKey}` });

// Predictive: forecasts per flock (the latest, and one per day for the accuracy score), the farm's feed
// forecast, device failure risks and the job's runs (docs/data-model.md, "Predictive").
export const forecastPartition = (flockId: string): string => `PREDICT#FLOCK#${flockId}`;
/** The flock's latest forecast (its active cycle's, or the last cycle's until a new one is computed). */
export const latestForecastKey = (flockId: string): Key => ({ PK: forecastPartition(flockId), SK: 'LATEST' });
export const FORECAST_DAY_SK_PREFIX = 'DAY#';
/** One forecast per flock and day (the day's last run wins): what accuracy scores. */
export const forecastDayKey = (flockId: string, asOf: string): Key => ({ PK: forecastPartition(flockId), SK: `${FORECAST_DAY_SK_PREFIX}${asOf}` });
/** GSI1: a farm's latest flock forecasts, by flock id. */
export const latestForecastsOfFarm = (farmId: string) => ({ GSI1PK: `FORECASTS#${farmId}` });
/** GSI1: a farm's daily forecasts by `<asOf>#<flockId>` (accuracy over a date range: one Query). */
export const forecastHistoryOfFarm = (farmId: string) => ({ GSI1PK: `FORECASTHISTORY#${farmId}` });
export const farmForecastKey = (farmId: string): Key => ({ PK: `PREDICT#FARM#${farmId}`, SK: 'LATEST' });
export const deviceRiskKey = (deviceId: string): Key => ({ PK: `PREDICT#DEVICE#${deviceId}`, SK: 'LATEST' });
/** GSI1: a farm's device risks by `<houseId>#<deviceId>`. */
export const deviceRisksOfFarm = (farmId: string) => ({ GSI1PK: `DEVICERISKS#${farmId}` });
/** A farm's runs of the predictive job (and of POST …/run), newest last by `<startedAt>#<runId>`. */
export const predictiveRunsPartition = (farmId: string): string => `PREDICT#RUNS#${farmId}`;
export const predictiveRunKey = (farmId: string, startedAt: string, runId: string): Key => ({
  PK: predictiveRunsPartition(farmId),
  SK: `${startedAt}#${runId}`,
});

// Schedules: recurring tasks whose occurrences are computed; one outcome (completion or skip) per
// schedule and farm-local date (docs/data-model.md, "Schedules").
export const schedulePartition = (scheduleId: string): string => `SCHEDULE#${scheduleId}`;
export const scheduleKey = (scheduleId: string): Key => ({ PK: schedulePartition(scheduleId), SK: 'META' });
export const OCCURRENCE_SK_PREFIX = 'OCC#';
/** The completion or skip of the occurrence on `date` (created with `attribute_not_exists`: one per date). */
export const occurrenceKey = (scheduleId: string, date: string): Key => ({ PK: schedulePartition(scheduleId), SK: `${OCCURRENCE_SK_PREFIX}${date}` });
/** GSI1: a farm's schedules, oldest first by `<createdAt>#<id>`. */
export const schedulesOfFarm = (farmId: string) => ({ GSI1PK: `SCHEDULES#${farmId}` });
/** How many schedules a farm holds (`count`), changed in the transaction of each create and delete (the per-farm cap). */
export const scheduleCounterKey = (farmId: string): Key => ({ PK: `SCHEDULECOUNT#${farmId}`, SK: 'COUNT' });
// Procurement: suppliers (listed in one GSI1 partition by name), purchase orders (per farm on GSI1,
// newest first), their receipts in the order's partition and, per supplier, its feed receipts on GSI2
// (reliability reads one Query).
export const supplierKey = (supplierId: string): Key => ({ PK: `SUPPLIER#${supplierId}`, SK: 'META' });
/** GSI1: every supplier, by `<lower-cased name>#<id>`. */
export const SUPPLIERS = { GSI1PK: 'SUPPLIERS' } as const;
export const purchaseOrderPartition = (orderId: string): string => `PORDER#${orderId}`;
export const purchaseOrderKey = (orderId: string): Key => ({ PK: purchaseOrderPartition(orderId), SK: 'META' });
export const RECEIPT_SK_PREFIX = 'RECEIPT#';
export const receiptKey = (orderId: string, receiptId: string): Key => ({ PK: purchaseOrderPartition(orderId), SK: `${RECEIPT_SK_PREFIX}${receiptId}` });
/** GSI1: a farm's purchase orders, newest first by `<createdAt>#<id>`. */
export const purchaseOrdersOfFarm = (farmId: string) => ({ GSI1PK: `PORDERS#${farmId}` });
/** GSI2: a supplier's receipts, by `<date>#<receiptId>`. */
export const receiptsOfSupplier = (supplierId: string) => ({ GSI2PK: `SUPPLIERRECEIPTS#${supplierId}` });
// Sharing: transfers between farms, the register of shared equipment, the farm's movement-restriction flag.
export const transferPartition = (transferId: string): string => `TRANSFER#${transferId}`;
export const transferKey = (transferId: string): Key => ({ PK: transferPartition(transferId), SK: 'META' });
/** GSI1: the transfers a farm sends, newest first by `<createdAt>#<id>`. */
export const transfersFromFarm = (farmId: string) => ({ GSI1PK: `TRANSFERS_OUT#${farmId}` });
/** GSI2: the transfers a farm receives, newest first by `<createdAt>#<id>`. */
export const transfersToFarm = (farmId: string) => ({ GSI2PK: `TRANSFERS_IN#${farmId}` });
/** One piece of shared equipment: its name, serial, owner and the farm that holds it now. */
export const equipmentKey = (equipmentId: string): Key => ({ PK: `EQUIPMENT#${equipmentId}`, SK: 'META' });
/** GSI1: the shared equipment a farm holds now; GSI2: what it owns (wherever it is). Both by `<lower-cased name>#<id>`. */
export const equipmentHeldBy = (farmId: string) => ({ GSI1PK: `EQUIPMENT_HELD#${farmId}` });
export const equipmentOwnedBy = (farmId: string) => ({ GSI2PK: `EQUIPMENT_OWNED#${farmId}` });
/**
 * The farm's restriction flag: the string set `incidentIds` of its disease suspicions not yet closed, kept
 * with each `restrictionKey` item in the same transaction; a transfer's completion ConditionChecks that the
 * set is absent (DynamoDB drops an emptied set), which a "no item with this prefix" check cannot do.
 */
export const restrictionFlagKey = (farmId: string): Key => ({ PK: farmPartition(farmId), SK: 'RESTRICTIONS' });
/** The common prefix of the flag's SK and the `RESTRICTION#<incidentId>` items: one Query reads both. */
export const RESTRICTION_ITEMS_PREFIX = 'RESTRICTION';

// Continuity: farm exports, restores and preparedness drills (docs/data-model.md, "Continuity").
export const exportKey = (exportId: string): Key => ({ PK: `EXPORT#${exportId}`, SK: 'META' });
/** GSI1: a farm's exports, newest last by `<createdAt>#<id>` (the status reads the latest). */
export const exportsOfFarm = (farmId: string) => ({ GSI1PK: `EXPORTS#${farmId}` });
export const restoreKey = (restoreId: string): Key => ({ PK: `RESTORE#${restoreId}`, SK: 'META' });
/** Drills (generator, alarm, fire) in their farm's partition by date, so the farm's export carries them. */
export const DRILL_SK_PREFIX = 'DRILL#';
export const drillKey = (farmId: string, date: string, drillId: string): Key => ({ PK: farmPartition(farmId), SK: `${DRILL_SK_PREFIX}${date}#${drillId}` });
// Compliance: Salmonella samples of a farm's flocks (docs/data-model.md, "Compliance"); withdrawal windows are
// the ledger's withdrawal index above. No compliance item has a TTL: the records are kept (Reg. (EU) 2019/6 Art. 108: 5 years).
export const SAMPLE_SK_PREFIX = 'SAMPLE#';
/** One sample in its farm's partition, by flock then date: a farm's samples and a flock's are each one Query. */
export const sampleKey = (farmId: string, flockId: string, date: string, sampleId: string): Key => ({
  PK: farmPartition(farmId),
  SK: `${SAMPLE_SK_PREFIX}${flockId}#${date}#${sampleId}`,
});
export const samplesOfFlockPrefix = (flockId: string): string => `${SAMPLE_SK_PREFIX}${flockId}#`;
