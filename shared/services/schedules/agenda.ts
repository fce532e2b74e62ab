import { getFarm } from '../../db/farms.js';
import { farmNotFound } from '../../domain/references.js';
import { allSchedulesOfFarm, outcomesBetween } from '../../db/schedules.js';
import type { OutcomeRecord, ScheduleRecord } from '../../domain/schedules/records.js';
import type { Caller } from '../../domain/caller.js';
import { periodDays } from '../../domain/periods.js';
import { occurrencesBetween, occurrenceStatus, withAgeOrigin } from '../../domain/schedules/occurrences.js';
import { getCycles } from '../../db/cycles.js';
import { addDays, daysBetween, localToday } from '../../platform/calendar.js';
import { ValidationFailed } from '../../errors.js';
import { farmOfRequest } from '../farms.js';
import type { AgendaQuery } from '../../../schemas/schedules.js';

/** The agenda (`GET /api/v1/schedules/agenda`, the worker dashboard): occurrences computed on the farm's calendar, with their outcomes. */

/** How far an agenda may reach (and how far back its overdue list looks). */
export const AGENDA_MAX_DAYS = 92;

export function occurrenceView(s: ScheduleRecord, date: string, today: string, outcome: OutcomeRecord | undefined) {
  return {
    scheduleId: s.id,
    date,
    kind: s.kind,
    title: s.title,
    status: occurrenceStatus(date, today, outcome),
    farmId: s.farmId,
    houseId: s.houseId,
    flockId: s.flockId,
    cycleId: s.cycleId,
    assignee: s.assignee,
    outcome: outcome
      ? {
          status: outcome.status,
          at: outcome.at,
          by: outcome.by,
          notes: outcome.notes,
          reason: outcome.reason,
          movementId: outcome.movementId,
          weighingId: outcome.weighingId,
          doneOn: outcome.doneOn ?? null,
        }
      : null,
  };
}

/** The farm's today on its own clock. */
export async function farmToday(farmId: string, now: Date): Promise<{ timezone: string; today: string }> {
  const farm = await getFarm(farmId);
  if (!farm) throw farmNotFound(farmId);
  return { timezone: farm.timezone, today: localToday(now, farm.timezone) };
}

/**
 * The schedules with their cycles' current age origins (`withAgeOrigin`): one BatchGetItem of the cycles
 * their `ageDays` timings count in, none when no schedule has such a timing.
 */
export async function withAgeOrigins(schedules: ScheduleRecord[]): Promise<ScheduleRecord[]> {
  const aged = schedules.filter((s) => 'ageDays' in s.timing && s.flockId && s.cycleId);
  if (aged.length === 0) return schedules;
  const cycles = await getCycles(aged.map((s) => ({ flockId: s.flockId!, cycleId: s.cycleId! })));
  return schedules.map((s) => withAgeOrigin(s, cycles.get(`${s.flockId}:${s.cycleId}`)));
}

/** Every occurrence of the schedules between two dates with its outcome, by date then schedule. */
export async function occurrencesOf(schedules: ScheduleRecord[], from: string, to: string, today: string) {
  const perSchedule = await Promise.all(
    schedules.map(async (s) => {
      const dates = occurrencesBetween(s.timing, from, to, s);
      if (dates.length === 0) return [];
      const outcomes = new Map((await outcomesBetween(s.id, from, to)).map((o) => [o.date, o]));
      return dates.map((d) => occurrenceView(s, d, today, outcomes.get(d)));
    }),
  );
  return perSchedule.flat().sort((a, b) => (a.date === b.date ? a.scheduleId.localeCompare(b.scheduleId) : a.date < b.date ? -1 : 1));
}

/** The agenda of a farm: the occurrences between `from` and `to` (due, done, skipped, overdue) and the overdue ones before `from`. */
export async function agendaFor(user: Caller, query: AgendaQuery, now = new Date()) {
  const farmId = farmOfRequest(user, query.farmId);
  const { timezone, today } = await farmToday(farmId, now);
  const days = periodDays(query, timezone);
  const from = days.from ?? today;
  const to = days.to ?? from;
  if (daysBetween(from, to) >= AGENDA_MAX_DAYS)
    throw new ValidationFailed([{ field: 'to', message: `must be within ${AGENDA_MAX_DAYS} days of from (${from})` }]);
  return { farmId, timezone, today, from, to, ...(await agendaOf(farmId, from, to, today)) };
}

async function agendaOf(farmId: string, from: string, to: string, today: string) {
  const schedules = await withAgeOrigins(await allSchedulesOfFarm(farmId));
  const lastBefore = addDays(from < today ? from : today, -1);
  const [occurrences, earlier] = await Promise.all([
    occurrencesOf(schedules, from, to, today),
    occurrencesOf(schedules, addDays(from, -AGENDA_MAX_DAYS), lastBefore, today),
  ]);
  return { occurrences, overdue: earlier.filter((o) => o.status === 'overdue') };
}

/** The worker dashboard's agenda: today's occurrences on the farm's clock and the overdue ones before it. */
export async function todaysAgenda(farmId: string, now = new Date()) {
  const { today } = await farmToday(farmId, now);
  const { occurrences, overdue } = await agendaOf(farmId, today, today, today);
  return { date: today, occurrences, overdue };
}
