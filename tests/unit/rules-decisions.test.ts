import { describe, expect, it } from 'vitest';
import { systemCaller } from '../../shared/domain/caller.js';
import { unchanged } from '../../shared/domain/decision.js';
import { decideRuleChange, decideRuleCreate, decideRuleDeletion, patchedRuleBody, ruleFieldsOf } from '../../shared/domain/rules/definitions.js';
import type { RuleRecord, RuleState } from '../../shared/domain/rules/records.js';
import { evaluationSpan, idleRuleState, nextRuleState } from '../../shared/domain/rules/states.js';
import { NotFound, ValidationFailed } from '../../shared/errors.js';
import type { CreateRuleBody } from '../../schemas/rules.js';

/** Rule definitions and evaluation states decided without a database: the refusals in order and the records returned. */

const caller = systemCaller('test', [], ['F1']);
const now = new Date('2026-03-04T10:00:00.000Z');
const body = (patch: Partial<CreateRuleBody> = {}): CreateRuleBody =>
  ({
    name: ' Mortality ',
    scope: { farmId: 'F1' },
    input: 'dailyMortalityPct',
    window: 'P1D',
    aggregation: 'last',
    condition: { op: '>', value: 1 },
    severity: 'warning',
    actions: [],
    ...patch,
  }) as CreateRuleBody;
const none = { house: undefined, flock: undefined };
const problemsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof ValidationFailed ? (err.details ?? []).map((d) => d.field) : err;
  }
  return [];
};

describe('rule definitions', () => {
  it('checks the farm first, then the cooldown, then every problem of the definition at once', () => {
    expect(() => ruleFieldsOf(caller, body({ scope: { farmId: 'F2' }, input: 'bogus' }))).toThrow(new NotFound('Farm F2 not found'));
    expect(problemsOf(() => ruleFieldsOf(caller, body({ cooldown: 'PT1H', cooldownMinutes: 60, input: 'bogus' })))).toEqual(['cooldown']);
    expect(problemsOf(() => ruleFieldsOf(caller, body({ input: 'bogus', condition: { op: '>' } as never })))).toEqual(['input', 'condition']);
    expect(problemsOf(() => ruleFieldsOf(caller, body({ input: 'generatorDrillOverdueDays', scope: { farmId: 'F1', houseId: 'H1' } })))).toEqual([
      'scope.houseId',
    ]);
  });

  it('defaults the cooldown to the window and trims the name', () => {
    expect(ruleFieldsOf(caller, body({ window: 'P3D' }))).toMatchObject({ name: 'Mortality', cooldownMinutes: 3 * 1440, enabled: true });
    expect(ruleFieldsOf(caller, body({ cooldown: 'PT12H' })).cooldownMinutes).toBe(720);
  });

  it('judges the scope read: a missing house or another farm’s flock is a 404, a flock of another house a 400', () => {
    const scoped = ruleFieldsOf(caller, body({ scope: { farmId: 'F1', houseId: 'H1', flockId: 'K1' } }));
    expect(() => decideRuleCreate(caller, scoped, none, now)).toThrow(new NotFound('House H1 not found'));
    expect(() => decideRuleCreate(caller, scoped, { house: {}, flock: { farmId: 'F2', houseId: 'H1' } }, now)).toThrow(new NotFound('Flock K1 not found'));
    expect(problemsOf(() => decideRuleCreate(caller, scoped, { house: {}, flock: { farmId: 'F1', houseId: 'H2' } }, now))).toEqual(['scope.flockId']);
  });

  it('creates a rule of the caller at version 1, audited with its fields', () => {
    const fields = ruleFieldsOf(caller, body());
    const { rule, audit, changes } = decideRuleCreate(caller, fields, none, now);
    expect(rule).toMatchObject({ farmId: 'F1', name: 'Mortality', createdBy: caller.id, createdAt: now.toISOString(), version: 1, defaultKey: null });
    expect(audit).toEqual([{ action: 'rule.create', targetType: 'rule', targetId: rule.id, changes: fields }]);
    expect(changes).toEqual([{ type: 'rule', id: rule.id, op: 'upsert', version: 1, farmIds: ['F1'] }]);
  });

  it('changes a rule within its farm: the fields that differ, the next version; nothing when none differs', () => {
    const { rule } = decideRuleCreate(caller, ruleFieldsOf(caller, body()), none, now);
    const later = new Date('2026-03-05T00:00:00.000Z');
    const same = decideRuleChange(rule, ruleFieldsOf(caller, patchedRuleBody(rule, {})), none, later);
    expect(unchanged(same.change)).toBe(true);
    const edited = decideRuleChange(rule, ruleFieldsOf(caller, patchedRuleBody(rule, { severity: 'critical' })), none, later);
    expect(edited.change.changes).toEqual({ severity: { from: 'warning', to: 'critical' } });
    expect(edited.change.next).toMatchObject({ severity: 'critical', version: 2, updatedAt: later.toISOString() });
    expect(edited.changes).toEqual([{ type: 'rule', id: rule.id, op: 'upsert', version: 2, farmIds: ['F1'] }]);
    const other = { ...caller, farmIds: ['F1', 'F2'] };
    expect(problemsOf(() => decideRuleChange(rule, ruleFieldsOf(other, body({ scope: { farmId: 'F2' } })), none, later))).toEqual(['scope.farmId']);
  });

  it('a PATCH cooldown replaces the stored one whichever way it is written', () => {
    const { rule } = decideRuleCreate(caller, ruleFieldsOf(caller, body({ cooldownMinutes: 90 })), none, now);
    expect(ruleFieldsOf(caller, patchedRuleBody(rule, { cooldown: 'PT2H' })).cooldownMinutes).toBe(120);
    expect(ruleFieldsOf(caller, patchedRuleBody(rule, { name: 'x' })).cooldownMinutes).toBe(90);
  });

  it('deletes a rule with its audit and a delete change', () => {
    const rule = { id: 'R1', name: 'Mortality', farmId: 'F1' } as RuleRecord;
    expect(decideRuleDeletion(rule)).toEqual({
      audit: [{ action: 'rule.delete', targetType: 'rule', targetId: 'R1', changes: { name: 'Mortality' } }],
      changes: [{ type: 'rule', id: 'R1', op: 'delete', farmIds: ['F1'] }],
    });
  });
});

describe('rule evaluation states', () => {
  const DAY = 86_400_000;
  const nowMs = Date.parse('2026-03-10T10:30:00.000Z');
  const state = (patch: Partial<RuleState> = {}): RuleState => ({
    target: 'flock:K1',
    state: 'ok',
    reason: null,
    lastEvaluatedAt: '2026-03-08T00:00:00.000Z',
    lastFiredAt: null,
    evaluatedAt: null,
    firedAt: null,
    ruleVersion: 1,
    ...patch,
  });

  it('judges the days since the last one, at most 35 back, exactly a named day, nothing when none ended', () => {
    const until = Date.parse('2026-03-10T00:00:00.000Z');
    expect(evaluationSpan('day', state(), nowMs)).toEqual({ afterMs: Date.parse('2026-03-08T00:00:00.000Z'), untilMs: until });
    expect(evaluationSpan('day', undefined, nowMs)).toEqual({ afterMs: until - DAY, untilMs: until });
    expect(evaluationSpan('day', state({ lastEvaluatedAt: '2025-01-01T00:00:00.000Z' }), nowMs)).toEqual({ afterMs: until - 35 * DAY, untilMs: until });
    expect(evaluationSpan('day', state({ lastEvaluatedAt: '2026-03-10T00:00:00.000Z' }), nowMs)).toBeUndefined();
    expect(evaluationSpan('day', state(), nowMs, '2026-03-10')).toEqual({ afterMs: until, untilMs: until + DAY });
  });

  it('leaves a state never back in time, and none when it says the same again', () => {
    const run = { status: { state: 'ok' as const, reason: null, at: null }, lastFiredAt: null, firings: [] };
    const later = state({ lastEvaluatedAt: '2026-03-11T00:00:00.000Z' });
    expect(nextRuleState('flock:K1', 1, later, run, Date.parse('2026-03-10T00:00:00.000Z'), new Date(nowMs))).toBeUndefined();
    const fired = { ...run, status: { state: 'fired' as const, reason: 'x', at: null }, lastFiredAt: '2026-03-10T00:00:00.000Z', firings: [{}] as never };
    expect(nextRuleState('flock:K1', 1, state(), fired, Date.parse('2026-03-10T00:00:00.000Z'), new Date(nowMs))).toEqual({
      target: 'flock:K1',
      state: 'fired',
      reason: 'x',
      lastEvaluatedAt: '2026-03-10T00:00:00.000Z',
      lastFiredAt: '2026-03-10T00:00:00.000Z',
      evaluatedAt: '2026-03-10T10:30:00.000Z',
      firedAt: '2026-03-10T10:30:00.000Z',
      ruleVersion: 1,
    });
  });

  it('says why a rule has nothing to judge, once per version of the rule', () => {
    const idle = idleRuleState(2, 'hour', undefined);
    expect(idle).toMatchObject({ target: 'scope', state: 'no_data', reason: expect.stringMatching(/^no sensor/), ruleVersion: 2 });
    expect(idleRuleState(2, 'hour', idle)).toBeUndefined();
    expect(idleRuleState(3, 'hour', idle)).toMatchObject({ ruleVersion: 3 });
  });
});
