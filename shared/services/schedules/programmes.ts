import { getFlock } from '../../db/flocks.js';
import type { CommandContext } from '../../domain/command.js';
import { visibleTo } from '../../domain/farm-access.js';
import type { Placement } from '../../domain/schedules/decisions.js';
import { decideProgramme, PROGRAMMES, programmeOf } from '../../domain/schedules/programmes.js';
import { toScheduleDto } from '../../domain/schedules/records.js';
import { NotFound } from '../../errors.js';
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
    const { schedules, audit, changes } = decideProgramme(ctx.caller, programme, { farmId, placement, placementDate, cycle: cycle! }, ctx.now);
    const response = {
      created: true,
      message: `Programme ${programme.name} applied`,
      data: { programmeId, cycleId: body.cycleId, schedules: schedules.map(toScheduleDto) },
    };
    await commitWithinCap(ctx, schedules, { audit, changes, response });
    return response;
  });
}
