import { ulid } from 'ulidx';
import { getFlock } from '../../db/flocks.js';
import type { CommandContext } from '../../domain/command.js';
import { visibleTo } from '../../domain/farm-access.js';
import type { Placement } from '../../domain/schedules/decisions.js';
import { PROGRAMMES, programmeOf } from '../../domain/schedules/programmes.js';
import { toScheduleDto, type ScheduleRecord } from '../../domain/schedules/records.js';
import { Conflict, NotFound, ValidationFailed } from '../../errors.js';
import { idempotentCommand } from '../idempotency.js';
import { commitWithinCap, placementOrThrow } from './schedules.js';
import type { ApplyProgrammeBody } from '../../../schemas/schedules.js';

/** Programmes (`/api/v1/schedules/programmes`): vaccination programme templates, applied to a cycle as ordinary schedules. */

export const listProgrammes = () => PROGRAMMES;

/** Applies a programme to a cycle: one ordinary schedule per step (ageDays from the cycle's placement), all in one transaction. */
export async function applyProgramme(ctx: CommandContext, programmeId: string, body: ApplyProgrammeBody) {
  const programme = programmeOf(programmeId);
  if (!programme) throw new NotFound(`Programme ${programmeId} not found`);
  const flock = visibleTo(ctx.caller, await getFlock(body.flockId), () => new NotFound(`Cycle ${body.cycleId} of flock ${body.flockId} not found`));
  const farmId = flock.farmId;
  return idempotentCommand(ctx, `programme:${programmeId}:${body.cycleId}`, body, async (ctx) => {
    const placement: Placement = { houseId: body.houseId ?? flock.houseId, flockId: body.flockId, cycleId: body.cycleId, assignee: body.assignee ?? null };
    const { placementDate, cycle } = await placementOrThrow(farmId, placement);
    if (cycle!.status !== 'active') throw new Conflict(`Cycle ${body.cycleId} is closed; a programme applies to an active cycle`);
    if (cycle!.birdType !== programme.birdType)
      throw new ValidationFailed([{ field: 'cycleId', message: `is a ${cycle!.birdType} cycle; programme ${programmeId} is for ${programme.birdType}s` }]);
    const now = ctx.now.toISOString();
    const schedules: ScheduleRecord[] = programme.steps.map((step) => ({
      id: ulid(),
      farmId,
      ...placement,
      kind: step.kind,
      title: step.title,
      details: step.details,
      timing: { ageDays: step.ageDays },
      placementDate,
      lastOccurrence: null,
      programme: { id: programme.id, step: step.id },
      createdBy: ctx.caller.id,
      createdAt: now,
      updatedAt: now,
      version: 1,
    }));
    const response = {
      created: true,
      message: `Programme ${programme.name} applied`,
      data: { programmeId, cycleId: body.cycleId, schedules: schedules.map(toScheduleDto) },
    };
    await commitWithinCap(ctx, schedules, {
      audit: [
        {
          action: 'schedule.apply_programme',
          targetType: 'cycle',
          targetId: body.cycleId,
          changes: { programmeId, scheduleIds: schedules.map((s) => s.id) },
        },
      ],
      changes: schedules.map((s) => ({ type: 'schedule', id: s.id, op: 'upsert' as const, version: 1 })),
      response,
    });
    return response;
  });
}
