import { ulid } from 'ulidx';
import type { MovementInput } from '../../../schemas/movements.js';
import type { DensityWarning } from '../../../schemas/warnings.js';
import { Conflict, ValidationFailed } from '../../errors.js';
import type { Caller } from '../caller.js';
import { densityWarningsOf, type Placement } from '../compliance/density-warnings.js';
import { isSale, judgeSale, overrideEvent, type SaleCheck, type WithdrawalWindow } from '../compliance/withdrawals.js';
import { visibleTo } from '../farm-access.js';
import { drawFromLots, drawsEggs, type EggDrawType, type EggLot } from '../eggs/lots.js';
import { effectsOf, feedTypeFromStock, movementProblems, needsFeedType, netChanges } from '../ledger.js';
import { cycleNotFound, deliveryReferenceIds, flockNotFound, judgeDeliveryReferences } from '../references.js';
import { latestAllowedDate } from '../weights.js';
import { movementDto, newMovement, refOf, type LedgerGroup, type MovementRecord } from './record.js';

/**
 * Recording a movement, decided without I/O from what the use case read (shared/db/movement-basis.ts):
 * the checks in the order a client meets them, the movement (and the other side of a transfer between
 * flocks), the ledger changes, the density warnings of birds entering a house and the audit events.
 */

/** A cycle as the decision needs it. */
export type CycleFacts = Placement['cycle'] & { farmId: string; status: string; endDate: string | null; closedAt: string | null };

/** What recording `body` reads, besides its cycle: the repository's query (shared/db/movement-basis.ts). */
export function movementReads(body: MovementInput) {
  const side = receivingSide(body.type);
  return {
    /** Birds enter this cycle's house: its flock and forecast. */
    withFlock: side === 'own',
    counterpartFlockId: isBirdTransfer(body.type) && 'counterpartFlockId' in body ? body.counterpartFlockId : undefined,
    withCounterpartForecast: side === 'counterpart',
    ...deliveryReferenceIds(body as { supplierId?: unknown; orderId?: unknown }),
    windowsFrom: isSale(body.type) ? body.date : undefined,
    eggLots: drawsEggs(body.type),
    feedInStock: needsFeedType(body),
  };
}
export type MovementReads = ReturnType<typeof movementReads>;

export interface CreateFacts {
  caller: Pick<Caller, 'id' | 'capabilities' | 'allFarms' | 'farmIds'>;
  now: Date;
  /** Movements older than this many hours lock automatically (the answer shows the lock that applies). */
  autoLockHours: number;
  /** The cycle named by the path, as read (undefined: none). */
  cycle: CycleFacts | undefined;
  /** The cycle's withdrawal revision (read with it) and its windows from the sale's date on: a sale. */
  sale?: { withdrawalRev: number; windows: readonly WithdrawalWindow[] } | undefined;
  /** The cycle's egg lots on hand: a movement that takes eggs. */
  eggLots?: readonly EggLot[] | undefined;
  /** The feed types the farm holds: a consumption without a type. */
  feedInStock?: readonly string[] | undefined;
  /** The supplier and order a delivery names, as read. */
  references?: { supplier?: { farmIds: readonly string[] } | undefined; order?: { farmId: string; supplierId: string } | undefined };
  /** A transfer between flocks: the other flock and its active cycle, as read. */
  counterpart?: { flock: { id: string; farmId: string; activeCycleId: string | null } | undefined; cycle: CycleFacts | undefined };
  /** Where entering birds go (this cycle's flock, or the other side's): flock, forecast, house and farm. */
  placement?: Omit<Placement, 'cycle'>;
}

export interface MovementDecision {
  /** The movement as answered. */
  answer: ReturnType<typeof movementDto>;
  /** The input as recorded (a sale's override dropped when it falls in no window). */
  input: MovementInput;
  own: MovementRecord;
  /** The other side of a transfer between flocks. */
  mirror?: MovementRecord;
  groups: LedgerGroup[];
  warnings: DensityWarning[];
  audit: ReturnType<typeof overrideEvent>;
}

export const isBirdTransfer = (type: string): type is 'bird_transfer_in' | 'bird_transfer_out' => type === 'bird_transfer_in' || type === 'bird_transfer_out';

/** Which cycle birds enter with this movement: this one (inflow, transfer in), the other side (transfer out), or none. */
export function receivingSide(type: string): 'own' | 'counterpart' | undefined {
  if (type === 'bird_inflow' || type === 'bird_transfer_in') return 'own';
  return type === 'bird_transfer_out' ? 'counterpart' : undefined;
}

type EggDraw = Extract<MovementInput, { type: EggDrawType }>;

const hasOverride = (body: MovementInput) => 'override' in body && body.override !== undefined;

function withoutOverride(input: MovementInput): MovementInput {
  const { override: _o, ...rest } = input as MovementInput & { override?: unknown };
  return rest as MovementInput;
}

/** The other side's active cycle: a flock of the same farm (birds change farm only by a transfer between farms), active. */
function counterpartCycle(cycle: CycleFacts, facts: CreateFacts['counterpart'], flockId: string): CycleFacts {
  const flock = facts?.flock;
  if (flock?.farmId !== cycle.farmId) throw flockNotFound(flockId);
  const active = flock.activeCycleId ? facts?.cycle : undefined;
  if (active?.status !== 'active') throw new Conflict(`Flock ${flock.id} has no active cycle; birds move only between active cycles`);
  return active;
}

export function decideMovementCreate(flockId: string, cycleId: string, body: MovementInput, facts: CreateFacts): MovementDecision {
  const { caller } = facts;
  const cycle = visibleTo(caller, facts.cycle, () => cycleNotFound(flockId, cycleId));
  if (cycle.status !== 'active') throw new Conflict(`Cycle ${cycle.id} is closed; it takes no new movements`);
  const problems = movementProblems(body, cycle, latestAllowedDate(facts.now));
  if (problems.length) throw new ValidationFailed(problems);
  const ref = refOf(cycle);
  // eggs leave from the lots the cycle's hens laid: the ones named, else the oldest on hand (recorded either way)
  const drawn = drawsEggs(body.type) ? ({ ...body, fromLots: drawFromLots(body as EggDraw, cycle.id, facts.eggLots ?? []) } as MovementInput) : body;
  // a sale inside a withdrawal period: 409, or its audited override (an override outside any window is dropped)
  const sale: SaleCheck | undefined = facts.sale ? judgeSale(caller, cycle.id, drawn, hasOverride(drawn), facts.sale) : undefined;
  const input = sale?.covering.length === 0 && 'override' in drawn ? withoutOverride(drawn) : drawn;
  judgeDeliveryReferences(cycle.farmId, input as { supplierId?: unknown; orderId?: unknown }, facts.references ?? {});
  const feedType = needsFeedType(input) ? feedTypeFromStock(cycle.farmId, facts.feedInStock ?? []) : undefined;
  const transfer = isBirdTransfer(input.type) && 'counterpartFlockId' in input ? input : undefined;
  const other = transfer ? counterpartCycle(cycle, facts.counterpart, transfer.counterpartFlockId) : undefined;
  const now = facts.now.toISOString();
  const transferId = other ? ulid() : undefined;
  const own = newMovement(input, ref, caller.id, now, { ...(feedType ? { feedType } : {}), ...(transferId ? { transferId } : {}) });
  const groups: LedgerGroup[] = [{ ref, changes: netChanges(effectsOf(input, 1, feedType)), withdrawalRev: sale?.withdrawalRev }];
  let mirror: MovementRecord | undefined;
  if (other && transfer) {
    // Both sides, each pointing at the other, so a later delete removes the pair together.
    const mirrorInput: MovementInput = {
      type: transfer.type === 'bird_transfer_in' ? 'bird_transfer_out' : 'bird_transfer_in',
      date: transfer.date,
      quantity: transfer.quantity,
      counterpartFlockId: cycle.flockId,
      // the cost per bird travels with the birds: both sides record it
      ...(transfer.unitCost !== undefined ? { unitCost: transfer.unitCost } : {}),
    };
    mirror = newMovement(mirrorInput, refOf(other), caller.id, now, { transferId, counterpartCycleId: cycle.id, counterpartMovementId: own.id });
    own.fields = { ...own.fields, counterpartCycleId: other.id, counterpartMovementId: mirror.id };
    groups.push({ ref: refOf(other), changes: netChanges(effectsOf(mirrorInput)) });
  }
  // birds entering a house: a warning (never a refusal) when they would put it above the stocking density limit
  const side = receivingSide(input.type);
  const receiving = side === 'own' ? cycle : side === 'counterpart' ? other : undefined;
  const warnings =
    receiving && facts.placement && 'quantity' in input
      ? densityWarningsOf({ cycle: receiving, ...facts.placement }, input.quantity, input.date, input.type === 'bird_inflow')
      : [];
  const audit = sale
    ? overrideEvent(
        { ...(input as { override?: { reason: string } }), id: own.id, type: input.type, date: input.date, flockId: cycle.flockId, cycleId: cycle.id },
        sale,
      )
    : [];
  const answer = movementDto(own, cycle, facts.now, facts.autoLockHours);
  return { answer, input, own, ...(mirror ? { mirror } : {}), groups, warnings, audit };
}
