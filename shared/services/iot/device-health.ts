import type { CommandContext } from '../../domain/command.js';
import { devicesDue, recordHealth } from '../../db/devices.js';
import { deviceStatus, nextStatusChangeAt } from '../../domain/iot/device-health.js';
import type { DeviceStatus } from '../../../schemas/vocabulary.js';
import { healthFactors } from './devices.js';
import { openDeviceOfflineIncident } from '../incidents.js';
import { AppError } from '../../errors.js';
import { systemCaller } from '../../domain/caller.js';
import { log } from '../../platform/log.js';

/** Who the job acts as: it reads and marks devices of every farm, nothing else. */
export const deviceHealthCaller = systemCaller('device-health', [], 'all');

/**
 * The device health job (a `schedule` event): records the devices that went stale or offline since the
 * last run. It reads only the devices whose health was due to change (GSI2 `DEVICES_DUE`, filed by
 * ingestion when it moves last seen), never the whole registry. A device seen again meanwhile is left
 * alone (the write is conditional on the last seen it read). A device that goes offline opens an
 * `equipment` incident (one per device while open: dedup key `device-offline:<deviceId>`).
 */
export interface HealthTransition {
  deviceId: string;
  farmId: string;
  houseId: string;
  from: DeviceStatus;
  to: DeviceStatus;
  lastSeen: string;
}

/** An offline device opens (or joins) its incident; a refusal is logged and the job goes on with the other devices. */
async function offlineIncident(ctx: CommandContext, device: Parameters<typeof openDeviceOfflineIncident>[1]): Promise<void> {
  try {
    await openDeviceOfflineIncident(ctx, device);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    log.warn('offline incident not opened', { deviceId: device.deviceId, error: err.name, reason: err.message });
  }
}

const PAGE = 200;
/** Pages per run: a backlog larger than this is finished by the next run. */
const MAX_PAGES = 25;

export async function checkDeviceHealth(ctx: CommandContext): Promise<{ checked: number; transitions: HealthTransition[] }> {
  const { now } = ctx;
  const nowMs = now.getTime();
  const nowIso = now.toISOString();
  const factors = await healthFactors();
  const transitions: HealthTransition[] = [];
  let checked = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const due = await devicesDue(nowIso, PAGE);
    checked += due.length;
    const results = await Promise.all(
      due.map(async (d) => {
        if (!d.lastSeen) return 0;
        const lastSeenMs = Date.parse(d.lastSeen);
        const status = deviceStatus(lastSeenMs, d.reportingIntervalSeconds, nowMs, factors);
        const next = nextStatusChangeAt(lastSeenMs, d.reportingIntervalSeconds, nowMs, factors);
        const recorded = await recordHealth(d.id, { lastSeen: d.lastSeen, status, dueAt: next === null ? null : new Date(next).toISOString(), now: nowIso });
        if (recorded && status !== d.healthStatus) {
          transitions.push({ deviceId: d.id, farmId: d.farmId, houseId: d.houseId, from: d.healthStatus, to: status, lastSeen: d.lastSeen });
          if (status === 'offline') await offlineIncident(ctx, { deviceId: d.id, farmId: d.farmId, name: d.name, lastSeen: d.lastSeen });
        }
        return 1;
      }),
    );
    if (due.length < PAGE || results.length === 0) break;
  }
  return { checked, transitions };
}
