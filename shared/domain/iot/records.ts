import type { DeviceKind, DeviceStatus, SensorMetric } from '../../../schemas/vocabulary.js';

/** The device registry's records as stored and decided on (keys and items: shared/db/devices.ts). The secret is kept only as its hash. */
export interface DeviceRecord {
  id: string;
  farmId: string;
  houseId: string;
  kind: DeviceKind;
  name: string;
  metrics: SensorMetric[];
  reportingIntervalSeconds: number;
  secretHash: string;
  keyIssuedAt: string;
  /** The newest reading's time (ISO), written at most once a minute; null until the first reading. */
  lastSeen: string | null;
  /** The newest value of each metric with its time, written with lastSeen. */
  latest: Partial<Record<SensorMetric, { value: number; ts: string }>>;
  /** The health the job (or a new reading) last recorded: transitions are what the dashboard and incidents see. */
  healthStatus: DeviceStatus;
  healthChangedAt: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** The device fields a change may set. */
export type DeviceChanges = Partial<Pick<DeviceRecord, 'name' | 'houseId' | 'metrics' | 'reportingIntervalSeconds' | 'secretHash' | 'keyIssuedAt'>>;
