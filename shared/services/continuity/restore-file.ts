import { decodeTime, ulid } from 'ulidx';
import type { RestoreRecord } from '../../domain/continuity/jobs.js';
import { cycleLocator } from '../../db/keys.js';
import { eggLotItem } from '../../db/egg-lots.js';
import { lotFromItem } from '../../db/movements.js';
import { movementFromItem } from '../../db/movements.js';
import { changesEggLots, decideLotBackfill, type LotBalance } from '../../domain/eggs/lot-history.js';
import type { CycleRef } from '../../domain/movements/record.js';
import { exportLines } from '../../aws/export-store.js';
import { differences, ExportDigest, IdMap, lineProblem, ownedIdsOf, type ExportHeader, type ExportTrailer } from '../../domain/continuity/format.js';

/** What a restore makes of an export's file: the checks of its first pass, and each record as it is restored. */

/** The file cannot be restored (it fails a check): the restore fails naming why. */
export class RestoreRefused extends Error {}

export interface ReadExport {
  header: ExportHeader;
  ids: IdMap;
  checks: Array<Record<string, unknown>>;
  trailer: ExportTrailer;
  farmMeta: Record<string, unknown> | undefined;
}

/** A new id with the old one's time: lists ordered by id keep their order. */
const newIdOf = (old: string) => {
  try {
    return ulid(decodeTime(old));
  } catch {
    return ulid();
  }
};

/**
 * Pass 1 over the file, before anything is written: every line parses and follows the format, the
 * counts and checksum match the trailer, and every id the farm owns gets its new id.
 */
export async function readExport(objectKey: string, newFarmId: string): Promise<ReadExport> {
  const digest = new ExportDigest();
  const ids = new IdMap(newIdOf);
  const checks: Array<Record<string, unknown>> = [];
  let header: ExportHeader | undefined;
  let trailer: ExportTrailer | undefined;
  let farmMeta: Record<string, unknown> | undefined;
  let position = 0;
  for await (const text of exportLines(objectKey)) {
    position += 1;
    if (trailer) throw new RestoreRefused(`line ${position}: text after the trailer`);
    let line: { type: string; data: Record<string, unknown> };
    try {
      line = JSON.parse(text) as typeof line;
    } catch {
      throw new RestoreRefused(`line ${position}: not JSON`);
    }
    const problem = lineProblem(line, position, position === 1);
    if (problem) throw new RestoreRefused(problem);
    if (line.type === 'trailer') {
      trailer = line.data as unknown as ExportTrailer;
      continue;
    }
    digest.add(`${text}\n`, line.type);
    if (line.type === 'header') {
      header = line.data as unknown as ExportHeader;
      ids.map.set(header.farmId, newFarmId);
    } else if (line.type === 'check') checks.push(line.data);
    else {
      for (const id of ownedIdsOf(line.data)) ids.own(id);
      if (line.type === 'farm') farmMeta = line.data;
    }
  }
  if (!header) throw new RestoreRefused('the file is empty');
  if (!trailer) throw new RestoreRefused('the file has no trailer: it was cut short');
  const read = digest.trailer();
  if (read.sha256 !== trailer.sha256) throw new RestoreRefused(`checksum mismatch: the trailer says ${trailer.sha256}, the content is ${read.sha256}`);
  if (read.records !== trailer.records || differences(trailer.counts, read.counts).length)
    throw new RestoreRefused('the record counts differ from the trailer');
  if (!farmMeta) throw new RestoreRefused('the file holds no farm record');
  return { header, ids, checks, trailer, farmMeta };
}

/**
 * Test hook: `CONTINUITY_FAIL_AFTER_BATCHES=n` makes a restore fail after writing n batches (the clean-up is
 * what is tested); with `CONTINUITY_FAIL_FARM_NAME` set, only a restore into a farm of that name (so one
 * running service can both restore and fail on purpose: tests/e2e/governance.test.ts).
 */
export const failAfterBatches = (farmName: string) => {
  const n = Number(process.env.CONTINUITY_FAIL_AFTER_BATCHES ?? '');
  const only = process.env.CONTINUITY_FAIL_FARM_NAME;
  return Number.isInteger(n) && n > 0 && (!only || only === farmName) ? n : undefined;
};

/** A restored item: every owned id replaced; the farm itself renamed, marked `restoring` and off the farm list until checked. */
export function restoredItem(item: Record<string, unknown>, type: string, job: RestoreRecord, now: string): Record<string, unknown> {
  if (type === 'farm') {
    const { GSI1PK: _pk, GSI1SK: _sk, ...rest } = item;
    return {
      ...rest,
      name: job.farmName,
      isDefault: false,
      createdBy: job.createdBy,
      createdAt: now,
      updatedAt: now,
      version: 1,
      restoring: true,
      restoredFrom: { exportId: job.exportId, farmId: job.sourceFarmId, restoreId: job.id },
    };
  }
  // a cycle is found by its id alone (an export made before the locator existed has none)
  if (type === 'cycle') return { ...item, ...cycleLocator(String(item.id)) };
  // a receipt's supplier list (GSI2) is the supplier's own history: the copy stays off it
  if (type === 'receipt') {
    const { GSI2PK: _pk, GSI2SK: _sk, ...rest } = item;
    return rest;
  }
  return item;
}

/**
 * The egg history of the cycles a restore writes: their egg movements and lots as restored. A file
 * written before lots existed (v1, v2), or of a farm whose older eggs had none, lacks lots its movements
 * imply; `items` gives the lots it lacks and the older sales, losses and transfers their drawn lots
 * (shared/domain/eggs/lot-history.ts), so a restored layer cycle sells its eggs. A file whose lots are
 * complete gets nothing.
 */
export class RestoredEggHistory {
  private readonly cycles = new Map<string, { ref: CycleRef; movements: Record<string, unknown>[]; lots: LotBalance[] }>();

  /** Keeps a restored item the rebuild reads. */
  note(type: string, item: Record<string, unknown>): void {
    const isMovement = type === 'movement' && changesEggLots(String(item.type));
    if (!isMovement && type !== 'egg_lot') return;
    const cycleId = String(item.cycleId);
    const cycle = this.cycles.get(cycleId) ?? { ref: { farmId: String(item.farmId), flockId: String(item.flockId), cycleId }, movements: [], lots: [] };
    this.cycles.set(cycleId, cycle);
    if (isMovement) cycle.movements.push(item);
    else cycle.lots.push(lotFromItem(item));
  }

  /** The items to write: lots (`created`: not in the file) and the older movements again, with their lots. */
  items(now: string): { items: Record<string, unknown>[]; created: Array<{ PK: string; SK: string }> } {
    const items: Record<string, unknown>[] = [];
    const created: Array<{ PK: string; SK: string }> = [];
    for (const { ref, movements, lots } of this.cycles.values()) {
      const decision = decideLotBackfill(
        ref.cycleId,
        movements.map((m) => movementFromItem(m)!),
        lots,
      );
      for (const d of decision.differences) {
        const lot = eggLotItem(ref, decision.lots.find((l) => l.laidOn === d.laidOn)!, now);
        items.push(lot);
        if (!d.stored) created.push({ PK: String(lot.PK), SK: String(lot.SK) });
      }
      for (const r of decision.recorded) items.push({ ...movements.find((m) => m.id === r.movement.id)!, fields: r.fields });
    }
    return { items, created };
  }
}
