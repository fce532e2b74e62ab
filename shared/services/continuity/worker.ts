import type { CommandContext } from '../../domain/command.js';
import { runExport } from './exports.js';
import { runRestore } from './restores.js';
import type { ContinuityJobEvent } from '../../../schemas/continuity.js';

/** The worker's entry: one job, export or restore. */
export async function runContinuityJob(ctx: CommandContext, event: ContinuityJobEvent) {
  return event.kind === 'export' ? runExport(ctx, event.id) : runRestore(ctx, event.id);
}
