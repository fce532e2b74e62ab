/** Transfers between farms decided without a database: the refusals in the order a client meets them, and the records they return. */
import { describe, expect, it } from 'vitest';
import { decideTransferCompletion } from '../../shared/domain/transfers/completion.js';
import { endCycleId } from '../../shared/domain/transfers/ends.js';
import { FarmRestricted, type TransferRecord } from '../../shared/domain/transfers/records.js';
import { decideTransferRequest, judgeSender, judgeTransferDate, judgeTransferRequest, requestedEquipmentIds } from '../../shared/domain/transfers/requests.js';
import { approvalReads, decideTransferStep, judgeActingSide, transferMove } from '../../shared/domain/transfers/steps.js';
import { Conflict, Forbidden, NotFound, ValidationFailed } from '../../shared/errors.js';
import type { CreateTransferBody } from '../../schemas/sharing.js';

const now = new Date('2026-03-10T09:00:00.000Z');
const user = { id: 'u1', allFarms: false, farmIds: ['A'] };
const flockA = { id: 'FA', farmId: 'A', activeCycleId: 'CA' };
const cycleA = { id: 'CA', flockId: 'FA', farmId: 'A', status: 'active', startDate: '2026-01-01', endDate: null };
const cycleB = { id: 'CB', flockId: 'FB', farmId: 'B', status: 'active', startDate: '2026-01-01', endDate: null };
const birds: CreateTransferBody = { kind: 'birds', from: { farmId: 'A', flockId: 'FA' }, to: { farmId: 'B', flockId: 'FB' }, quantity: 100 };
const transfer = (over: Partial<TransferRecord> = {}): TransferRecord => ({
  id: 'T1',
  kind: 'birds',
  status: 'approved',
  from: { farmId: 'A', flockId: 'FA', cycleId: 'CA', movementId: null },
  to: { farmId: 'B', flockId: 'FB', cycleId: 'CB', movementId: null },
  quantity: 100,
  feedType: null,
  items: null,
  notes: null,
  requestedBy: 'u1',
  approved: null,
  rejected: null,
  cancelled: null,
  completed: null,
  completedDate: null,
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-02T00:00:00.000Z',
  version: 2,
  ...over,
});

describe('transfer request decisions', () => {
  it('refuses a request missing its kind’s fields, then a restricted sender naming its incidents', () => {
    expect(() => judgeTransferRequest({ ...birds, quantity: undefined })).toThrow(ValidationFailed);
    expect(() => judgeSender('A', ['I2', 'I1'])).toThrow(FarmRestricted);
    expect(() => judgeSender('A', [])).not.toThrow();
  });

  it('sends from an active cycle of a flock of the sending farm; another farm’s flock is a 404', () => {
    const { transfer: t, audit, changes } = decideTransferRequest(user, birds, { sender: { flock: flockA, cycle: cycleA } }, now);
    expect(t).toMatchObject({ status: 'requested', from: { flockId: 'FA', cycleId: 'CA' }, to: { farmId: 'B', flockId: 'FB', cycleId: null }, version: 1 });
    expect(audit[0]).toMatchObject({ action: 'transfer.request', targetId: t.id, changes: { status: 'requested', items: null } });
    expect(changes).toEqual([{ type: 'transfer', id: t.id, op: 'upsert', version: 1, farmIds: ['A', 'B'] }]);
    expect(() => decideTransferRequest(user, birds, { sender: { flock: { ...flockA, farmId: 'C' }, cycle: undefined } }, now)).toThrow(NotFound);
    expect(() => decideTransferRequest(user, birds, { sender: { flock: { ...flockA, activeCycleId: null }, cycle: undefined } }, now)).toThrow(
      /no active cycle; birds, feed and eggs are sent from an active cycle/,
    );
    expect(() => decideTransferRequest(user, birds, { sender: { flock: flockA, cycle: { ...cycleA, status: 'closed' } } }, now)).toThrow(/is closed/);
    expect(endCycleId('A', { ...flockA, farmId: 'C' })).toBeUndefined();
    expect(endCycleId('A', flockA, 'C9')).toBe('C9');
  });

  it('equipment: registered pieces must be held by the sender, new ones get an id', () => {
    const body: CreateTransferBody = { kind: 'equipment', from: { farmId: 'A' }, to: { farmId: 'B' }, items: [{ equipmentId: 'E1' }, { name: ' Scale ' }] };
    expect(requestedEquipmentIds(body)).toEqual(['E1']);
    const piece = { id: 'E1', name: 'Drinker', serial: null, ownerFarmId: 'A', holderFarmId: 'A' };
    const { transfer: t } = decideTransferRequest(user, body, { register: [piece] }, now);
    expect(t.items).toEqual([
      { equipmentId: 'E1', name: 'Drinker', serial: null, registers: false },
      { equipmentId: expect.any(String), name: 'Scale', serial: null, registers: true },
    ]);
    expect(() => decideTransferRequest(user, body, { register: [{ ...piece, holderFarmId: 'B' }] }, now)).toThrow(ValidationFailed);
    expect(() => decideTransferRequest(user, body, { register: [] }, now)).toThrow(NotFound);
  });
});

describe('transfer step decisions', () => {
  it('only the receiving side approves, only the sender cancels; an illegal move names the status', () => {
    expect(() => judgeActingSide(user, transfer({ status: 'requested' }), 'approve')).toThrow(Forbidden);
    expect(() => judgeActingSide(user, transfer(), 'cancel')).not.toThrow();
    expect(() => transferMove(transfer({ status: 'completed' }), 'cancel')).toThrow(Conflict);
    expect(transferMove(transfer(), 'complete')).toBe('completed');
  });

  it('an approval reads the flock named (else proposed) only when it is legal, and picks its active cycle', () => {
    const requested = transfer({ status: 'requested', to: { farmId: 'B', flockId: 'FB', cycleId: null, movementId: null } });
    expect(approvalReads(requested, 'approve', {})).toEqual({ flockId: 'FB' });
    expect(approvalReads(requested, 'approve', { flockId: 'FX', cycleId: 'CX' })).toEqual({ flockId: 'FX', cycleId: 'CX' });
    expect(approvalReads(transfer(), 'approve', {})).toBeUndefined();
    expect(approvalReads(requested, 'reject', {})).toBeUndefined();
    const found = { flock: { id: 'FB', farmId: 'B', activeCycleId: 'CB' }, cycle: cycleB };
    const { change, audit, changes } = decideTransferStep({ id: 'u2' }, requested, 'approve', { note: ' ok ' }, now, found);
    expect(change.fields).toMatchObject({ status: 'approved', approved: { at: now.toISOString(), by: 'u2', note: 'ok' }, to: { cycleId: 'CB' } });
    expect(change.next.version).toBe(3);
    expect(audit[0]!.changes).toMatchObject({ status: { from: 'requested', to: 'approved' }, note: 'ok', to: { to: { flockId: 'FB', cycleId: 'CB' } } });
    expect(changes).toEqual([{ type: 'transfer', id: 'T1', op: 'upsert', version: 3, farmIds: ['A', 'B'] }]);
    expect(() => decideTransferStep({ id: 'u2' }, requested, 'approve', {}, now, { flock: { ...found.flock, farmId: 'C' }, cycle: undefined })).toThrow(
      ValidationFailed,
    );
    expect(() => decideTransferStep({ id: 'u2' }, requested, 'approve', { flockId: 'FZ' }, now, { flock: undefined, cycle: undefined })).toThrow(NotFound);
  });
});

describe('transfer completion decisions', () => {
  it('writes both sides’ locked movements pointing at each other, the ledger changes and the birds placed', () => {
    const d = decideTransferCompletion(user, transfer(), {}, now, { from: cycleA, to: cycleB });
    const [out, into] = d.ledger!.puts;
    expect([out!.type, into!.type]).toEqual(['bird_transfer_out', 'bird_transfer_in']);
    expect(out!.fields).toMatchObject({ counterpartMovementId: into!.id, counterpartCycleId: 'CB', transferId: 'T1' });
    expect(out!.lock).toMatchObject({ type: 'manual', reason: 'written by transfer T1' });
    expect(d.change.fields).toMatchObject({ status: 'completed', completedDate: '2026-03-10', from: { movementId: out!.id } });
    expect(d.placement).toEqual({ cycle: cycleB, birds: 100 });
    expect(d.audit[0]!.changes).toEqual({ status: { from: 'approved', to: 'completed' }, movements: { out: out!.id, in: into!.id } });
  });

  it('refuses an end whose cycle is no longer active; equipment changes holder without the ledger', () => {
    expect(() => decideTransferCompletion(user, transfer(), {}, now, { from: cycleA, to: { ...cycleB, status: 'closed' } })).toThrow(
      /\(to\) is no longer active/,
    );
    const items = [{ equipmentId: 'E1', name: 'Drinker', serial: null, registers: false }];
    const d = decideTransferCompletion(user, transfer({ kind: 'equipment', items, quantity: null }), {}, now);
    expect(d.ledger).toBeUndefined();
    expect(d.equipment).toEqual(items);
    expect(d.audit[0]!.changes).toEqual({ status: { from: 'approved', to: 'completed' }, holders: [{ equipmentId: 'E1', from: 'A', to: 'B' }] });
  });
});

describe('graded eggs', () => {
  it('a grade is only for eggs; both movements carry it, the sender draws that grade and the receiver’s lots get it (farm stocks too)', () => {
    expect(() => judgeTransferRequest({ ...birds, grade: 'L' })).toThrow(ValidationFailed);
    const eggs = transfer({ kind: 'eggs', quantity: 500, grade: 'L' });
    const lots = [
      { laidOn: '2026-03-01', count: 900, ungraded: 600, graded: { L: 300 } },
      { laidOn: '2026-03-02', count: 400, ungraded: 0, graded: { L: 400 } },
    ];
    const d = decideTransferCompletion(user, eggs, {}, now, { from: cycleA, to: cycleB }, { lots, withdrawalRev: 0, windows: [] });
    const [out, into] = d.ledger!.puts;
    const drawn = [
      { laidOn: '2026-03-01', quantity: 300 },
      { laidOn: '2026-03-02', quantity: 200 },
    ];
    expect(out!.fields).toMatchObject({ grade: 'L', fromLots: drawn });
    expect(into!.fields).toMatchObject({ grade: 'L', fromLots: drawn });
    const [sent, received] = d.ledger!.groups;
    const amounts = (g: typeof sent, kind: string, laidOn?: string) =>
      g!.changes.find((c) => c.target.kind === kind && (laidOn === undefined || (c.target as { laidOn?: string }).laidOn === laidOn))!.amounts;
    expect(amounts(sent, 'eggLot', '2026-03-01')).toEqual({ count: -300, 'graded:L': -300 });
    expect(amounts(received, 'eggLot', '2026-03-02')).toEqual({ count: 200, 'graded:L': 200 });
    expect(amounts(received, 'eggs')).toMatchObject({ count: 500, 'graded:L': 500 });
    expect(() =>
      decideTransferCompletion(
        user,
        transfer({ kind: 'eggs', quantity: 800, grade: 'L' }),
        {},
        now,
        { from: cycleA, to: cycleB },
        { lots, withdrawalRev: 0, windows: [] },
      ),
    ).toThrow(/holds 700 eggs of grade L laid on or before 2026-03-10; cannot send 800/);
  });
});

describe('a transfer’s own date', () => {
  it('dates both movements on it and audits the completion back-dated; none: the completion’s day; a future one is refused', () => {
    const d = decideTransferCompletion(user, transfer({ date: '2026-03-01' }), {}, now, { from: cycleA, to: cycleB });
    expect(d.ledger!.puts.map((m) => m.date)).toEqual(['2026-03-01', '2026-03-01']);
    expect(d.change.fields).toMatchObject({ completedDate: '2026-03-01' });
    expect(d.audit[0]!.changes).toMatchObject({ date: '2026-03-01', backDated: true });
    expect(decideTransferCompletion(user, transfer(), {}, now, { from: cycleA, to: cycleB }).audit[0]!.changes).not.toHaveProperty('backDated');
    expect(() => decideTransferCompletion(user, transfer({ date: '2025-12-31' }), {}, now, { from: cycleA, to: cycleB })).toThrow(/cannot be dated 2025-12-31/);
    expect(() => judgeTransferDate({ date: '2026-03-12' }, now)).toThrow(ValidationFailed);
    expect(() => judgeTransferDate({ date: '2026-03-10' }, now)).not.toThrow();
    expect(decideTransferRequest(user, { ...birds, date: '2026-03-01' }, { sender: { flock: flockA, cycle: cycleA } }, now).transfer.date).toBe('2026-03-01');
  });
});
