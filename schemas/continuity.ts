import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { FarmDate, ListOf, StringEnum, Success, Timestamp, Ulid, UlidOf } from './common.js';

/**
 * Continuity (`/api/v1/continuity`): farm exports (JSON Lines, docs/export-format.md), restores into a
 * new farm, the backup status (point-in-time recovery, RPO/RTO) and the farm's readiness (feed, drills).
 */
const RecordId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
export const JOB_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export const DRILL_KINDS = ['generator', 'alarm', 'fire'] as const;
export type DrillKind = (typeof DRILL_KINDS)[number];
export const DRILL_RESULTS = ['passed', 'partial', 'failed'] as const;
const JobStatus = StringEnum(JOB_STATUSES, { description: 'pending → running → completed | failed' });

export const createExportBody = Type.Object(
  { farmId: Type.Optional(Type.String({ ...RecordId, description: 'The farm to export (required when you see more than one)' })) },
  { additionalProperties: false, $id: 'CreateExportBody' },
);
export type CreateExportBody = Static<typeof createExportBody>;

export const exportParams = Type.Object({ exportId: UlidOf('Id of the export') }, { additionalProperties: false, $id: 'ExportParams' });
export type ExportParams = Static<typeof exportParams>;

export const createRestoreBody = Type.Object(
  {
    exportId: UlidOf('A completed export of a farm you see'),
    farmName: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S', description: 'The name of the new farm' }),
  },
  { additionalProperties: false, $id: 'CreateRestoreBody' },
);
export type CreateRestoreBody = Static<typeof createRestoreBody>;

export const restoreParams = Type.Object({ restoreId: UlidOf('Id of the restore') }, { additionalProperties: false, $id: 'RestoreParams' });
export type RestoreParams = Static<typeof restoreParams>;

/** The worker's payload (Lambda Invoke, InvocationType Event). */
export const continuityJobBody = Type.Object(
  { kind: StringEnum(['export', 'restore'] as const), id: Ulid },
  { additionalProperties: false, $id: 'ContinuityJobBody' },
);
export type ContinuityJobEvent = Static<typeof continuityJobBody>;

export const readinessParams = Type.Object(
  { farmId: Type.String({ ...RecordId, description: 'The farm' }) },
  { additionalProperties: false, $id: 'ReadinessParams' },
);
export type ReadinessParams = Static<typeof readinessParams>;

export const createDrillBody = Type.Object(
  {
    farmId: Type.Optional(Type.String({ ...RecordId, description: 'The farm (required when you see more than one)' })),
    kind: StringEnum(DRILL_KINDS, { description: 'generator (run under load), alarm (the alarm chain reaches someone), fire' }),
    date: FarmDate('The day of the drill (not in the future)'),
    durationMinutes: Type.Integer({ minimum: 1, maximum: 1440, description: 'How long it ran' }),
    result: StringEnum(DRILL_RESULTS, { description: 'passed, partial or failed' }),
    notes: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S' })),
  },
  { additionalProperties: false, $id: 'CreateDrillBody' },
);
export type CreateDrillBody = Static<typeof createDrillBody>;

export const listDrillsQuery = Type.Object(
  {
    farmId: Type.Optional(Type.String({ ...RecordId, description: 'The farm (required when you see more than one)' })),
    kind: Type.Optional(StringEnum(DRILL_KINDS, { description: 'Only the drills of this kind' })),
  },
  { additionalProperties: false, $id: 'ListDrillsQuery' },
);
export type ListDrillsQuery = Static<typeof listDrillsQuery>;

// ---------------------------------------------------------------------------------------------------
// Responses

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Counts = Type.Record(Type.String(), Type.Integer(), { description: 'Records per record type (docs/export-format.md)' });

/** What every export and restore job reports of its own run. */
const JOB_BOOKKEEPING = {
  durationMs: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  createdBy: Type.String(),
  createdAt: Timestamp,
  startedAt: Nullable(Timestamp),
  finishedAt: Nullable(Timestamp),
  version: Type.Integer(),
};

export const ExportDto = Type.Object(
  {
    id: Ulid,
    farmId: Type.String(),
    farmName: Type.String(),
    status: JobStatus,
    format: Type.String({ description: '`flockwise-farm-export/v1`' }),
    records: Nullable(Type.Integer()),
    counts: Nullable(Counts),
    sha256: Nullable(Type.String({ description: 'sha256 (hex) of the file up to its trailer line, as the trailer states it' })),
    bytes: Nullable(Type.Integer()),
    ...JOB_BOOKKEEPING,
    download: Type.Optional(Nullable(Type.String({ description: 'Once completed: a pre-signed URL valid 15 minutes (AWS), or the download route (local)' }))),
  },
  { $id: 'ContinuityExport' },
);
export const ExportResponse = Success(ExportDto);

export const RestoreDto = Type.Object(
  {
    id: Ulid,
    exportId: Ulid,
    sourceFarmId: Type.String(),
    farmId: Type.String({ description: 'The new farm (usable once the restore is completed)' }),
    farmName: Type.String(),
    status: JobStatus,
    records: Nullable(Type.Integer()),
    counts: Nullable(Counts),
    checks: Nullable(
      Type.Object({ compared: Type.Integer({ description: 'Figures compared (one per cycle, plus the stock)' }), mismatches: Type.Array(Type.String()) }),
    ),
    ...JOB_BOOKKEEPING,
  },
  { $id: 'ContinuityRestore' },
);
export const RestoreResponse = Success(RestoreDto);

export const StatusDto = Type.Object(
  {
    pointInTimeRecovery: Type.Object({
      available: Type.Boolean(),
      status: StringEnum(['ENABLED', 'DISABLED', 'unknown'] as const),
      earliestRestorableDateTime: Nullable(Timestamp),
      latestRestorableDateTime: Nullable(Timestamp),
      recoveryPeriodInDays: Nullable(Type.Integer()),
      note: Nullable(Type.String()),
    }),
    objectives: Type.Object({
      rpo: Type.String({ description: 'Recovery point objective' }),
      rto: Type.String({ description: 'Recovery time objective' }),
      runbook: Type.String(),
    }),
    farms: Type.Array(
      Type.Object({
        farmId: Type.String(),
        name: Type.String(),
        lastExport: Nullable(
          Type.Object({ id: Ulid, status: JobStatus, createdAt: Timestamp, finishedAt: Nullable(Timestamp), records: Nullable(Type.Integer()) }),
        ),
      }),
    ),
  },
  { $id: 'ContinuityStatus' },
);
export const StatusResponse = Success(StatusDto);

export const DrillDto = Type.Object(
  {
    id: Ulid,
    farmId: Type.String(),
    kind: StringEnum(DRILL_KINDS),
    date: Type.String({ format: 'date' }),
    durationMinutes: Type.Integer(),
    result: StringEnum(DRILL_RESULTS),
    notes: Nullable(Type.String()),
    recordedBy: Type.String(),
    createdAt: Timestamp,
  },
  { $id: 'ContinuityDrill' },
);
export const DrillResponse = Success(DrillDto);
export const DrillListResponse = ListOf(DrillDto);

export const ReadinessDto = Type.Object(
  {
    farmId: Type.String(),
    asOf: Type.String({ format: 'date' }),
    feed: Type.Object({
      source: StringEnum(['silos', 'stock'] as const, {
        description:
          'silos: the silo sensors with a reading (kg in the bins ÷ their mean daily outflow); stock: the ledger’s feed stock ÷ the active cycles’ consumption',
      }),
      stockKg: Type.Number(),
      dailyConsumptionKg: Nullable(Type.Number({ description: 'Mean of the last 3 complete days across the active cycles' })),
      daysLeft: Nullable(Type.Number({ description: 'stock ÷ daily consumption; null without consumption' })),
      low: Type.Boolean({ description: 'Fewer than 3 days of feed left' }),
    }),
    water: Type.Object({
      reserveLiters: Nullable(Type.Number({ description: 'The farm’s declared `waterReserveLiters` (PATCH /api/v1/config/farms/{farmId})' })),
      dailyConsumptionLiters: Nullable(Type.Number({ description: 'Mean of the last 3 complete days across the active cycles' })),
      daysLeft: Nullable(
        Type.Number({ description: 'reserve ÷ daily consumption; null without a reserve or consumption (informational: not part of `ready`)' }),
      ),
      note: Nullable(Type.String()),
    }),
    drills: Type.Array(
      Type.Object({
        kind: StringEnum(DRILL_KINDS),
        everyDays: Type.Integer(),
        lastDate: Nullable(Type.String({ format: 'date' })),
        lastResult: Nullable(StringEnum(DRILL_RESULTS)),
        dueDate: Nullable(
          Type.String({ format: 'date', description: 'One interval after the last drill that ran; never run: one interval after the farm was created' }),
        ),
        overdue: Type.Boolean(),
        daysOverdue: Nullable(Type.Integer({ minimum: 0, description: 'Days past the due date (0 while not overdue)' })),
        source: Type.String(),
      }),
    ),
    ready: Type.Boolean({ description: 'At least 3 days of feed (or no consumption) and no drill overdue' }),
  },
  { $id: 'ContinuityReadiness' },
);
export const ReadinessResponse = Success(ReadinessDto);
