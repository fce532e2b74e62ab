import { ulid } from 'ulidx';
import { ValidationFailed } from '../../errors.js';
import type { Caller } from '../caller.js';
import type { AuditEvent, ResourceChange } from '../decision.js';
import { latestAllowedDate } from '../weights.js';
import type { CreateSampleBody } from '../../../schemas/compliance.js';

/**
 * Salmonella samples of a flock (Reg. (EC) 2160/2003), decided without I/O: a sample is dated neither in
 * the future nor before the start of the cycle it belongs to, and recorded with its audit event.
 */

/** A sample as stored and decided on (keys and items: shared/db/compliance.ts). */
export interface SampleRecord {
  id: string;
  farmId: string;
  flockId: string;
  cycleId: string | null;
  date: string;
  kind: string;
  laboratory: string | null;
  result: string | null;
  notes: string | null;
  createdAt: string;
  createdBy: string;
  version: number;
}

/** A sample of `flock` (read and scoped) in `cycle` (the one named, else the flock's active one; none: no cycle). */
export function decideSampleCreate(
  caller: Pick<Caller, 'id'>,
  flock: { id: string; farmId: string },
  cycle: { id: string; startDate: string } | undefined,
  body: CreateSampleBody,
  now: Date,
) {
  const problems = [];
  if (body.date > latestAllowedDate(now)) problems.push({ field: 'date', message: 'must not be in the future' });
  if (cycle && body.date < cycle.startDate) problems.push({ field: 'date', message: `must not be before the cycle's start date ${cycle.startDate}` });
  if (problems.length) throw new ValidationFailed(problems);
  const sample: SampleRecord = {
    id: ulid(),
    farmId: flock.farmId,
    flockId: flock.id,
    cycleId: cycle?.id ?? null,
    date: body.date,
    kind: body.kind,
    laboratory: body.laboratory ?? null,
    result: body.result ?? 'pending',
    notes: body.notes ?? null,
    createdAt: now.toISOString(),
    createdBy: caller.id,
    version: 1,
  };
  const audit: AuditEvent[] = [{ action: 'compliance.sample.create', targetType: 'sample', targetId: sample.id, changes: { ...sample } }];
  const changes: ResourceChange[] = [{ type: 'sample', id: sample.id, op: 'upsert', version: 1, farmIds: [sample.farmId] }];
  return { sample, audit, changes };
}
