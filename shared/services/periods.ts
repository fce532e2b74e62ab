import { getFarm } from '../db/farms.js';
import { needsTimeZone, periodDays, periodInstants, type Period } from '../domain/periods.js';

/**
 * A period a client sent, resolved on its farm's calendar (shared/domain/periods.ts holds the meaning):
 * the farm is read for its time zone only when the period needs it (a date as instants, a timestamp as
 * days). Every route with `from`/`to` goes through here.
 */
async function zoneFor(farmId: string, period: Period, as: 'instants' | 'days'): Promise<string> {
  return needsTimeZone(period, as) ? ((await getFarm(farmId))?.timezone ?? 'UTC') : 'UTC';
}

/** `from` inclusive, `endMs` exclusive (ms); open ends stay undefined. */
export async function farmPeriodInstants(farmId: string, period: Period) {
  return periodInstants(period, await zoneFor(farmId, period, 'instants'));
}

/** The farm-local days the period overlaps, both included; open ends stay undefined. */
export async function farmPeriodDays(farmId: string, period: Period) {
  return periodDays(period, await zoneFor(farmId, period, 'days'));
}
