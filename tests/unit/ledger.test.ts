import { describe, expect, it } from 'vitest';
import { effectiveLock, effectsOf, netChanges } from '../../shared/domain/ledger.js';
import { cycleKpis, ZERO_COUNTERS, ageDays } from '../../shared/domain/cycle-summary.js';
import { stageOf, checkDailyRecord } from '../../shared/domain/production-stage.js';
import { movementsOfForm, formProblems } from '../../shared/domain/daily-records.js';

describe('ledger effects', () => {
  it('a mortality removes birds alive and counts a death by cause on the day', () => {
    const changes = netChanges(effectsOf({ type: 'bird_mortality', date: '2026-11-02', quantity: 4, cause: 'heat' }));
    expect(changes).toEqual([
      { target: { kind: 'cycle' }, amounts: { movementCount: 1, deaths: 4, alive: -4 }, requires: { attribute: 'alive', atLeast: 4 } },
      { target: { kind: 'day', date: '2026-11-02' }, amounts: { deaths: 4, 'deathsByCause.heat': 4 } },
    ]);
  });

  it('an edit nets the reversal and the new effects: only the difference must be available', () => {
    const before = { type: 'bird_mortality' as const, date: '2026-11-02', quantity: 5 };
    const after = { ...before, quantity: 7 };
    const [cycle] = netChanges([...effectsOf(before, -1), ...effectsOf(after, 1)]);
    expect(cycle).toEqual({ target: { kind: 'cycle' }, amounts: { deaths: 2, alive: -2 }, requires: { attribute: 'alive', atLeast: 2 } });
    const smaller = netChanges([...effectsOf(after, -1), ...effectsOf(before, 1)]);
    expect(smaller[0]!.requires).toBeUndefined();
  });

  it('feed moves the farm stock; consumption needs the resolved feed type; kilos sum exactly', () => {
    const changes = netChanges([
      ...effectsOf({ type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 0.1 }),
      ...effectsOf({ type: 'feed_delivery', date: '2026-11-01', feedType: 'starter', quantityKg: 0.2 }),
      ...effectsOf({ type: 'feed_consumption', date: '2026-11-01', quantityKg: 0.3 }, 1, 'starter'),
    ]);
    expect(changes.find((c) => c.target.kind === 'feed')).toBeUndefined(); // +0.1 +0.2 −0.3 = 0 exactly
    expect(() => effectsOf({ type: 'feed_consumption', date: '2026-11-01', quantityKg: 1 })).toThrow(/resolved feed type/);
  });

  it('lock in force: stored, cycle closed, or older than the period', () => {
    const now = new Date('2026-11-10T12:00:00Z');
    const open = { status: 'active', closedAt: null };
    expect(effectiveLock({ lock: null, createdAt: '2026-11-10T00:00:00Z' }, open, now)).toBeNull();
    expect(effectiveLock({ lock: null, createdAt: '2026-11-07T11:59:59Z' }, open, now)).toMatchObject({ type: 'automatic', reason: 'older than 72 h' });
    expect(effectiveLock({ lock: null, createdAt: '2026-11-10T00:00:00Z' }, { status: 'closed', closedAt: '2026-11-10T06:00:00Z' }, now)).toMatchObject({ type: 'automatic', reason: 'cycle closed' });
    const manual = { type: 'manual' as const, reason: 'checked', at: '2026-11-10T01:00:00Z', by: 'u' };
    expect(effectiveLock({ lock: manual, createdAt: '2026-11-01T00:00:00Z' }, open, now)).toBe(manual);
  });
});

describe('cycle KPIs (DOMAIN.md)', () => {
  it('mortality, livability and FCR from the counters', () => {
    const c = { ...ZERO_COUNTERS, placed: 1000, deaths: 30, culls: 10, sold: 100, alive: 860, feedConsumedKg: 2000 };
    // mortality 30/1000 = 3 %; livability (860 + 100)/1000 = 96 %; FCR 2000 / (860 × 2.5) = 0.930
    expect(cycleKpis(c, { grams: 2500 })).toEqual({ mortalityPct: 3, livabilityPct: 96, fcr: 0.93, notes: [] });
    expect(cycleKpis(ZERO_COUNTERS, null)).toMatchObject({ mortalityPct: null, livabilityPct: null, fcr: null });
    expect(cycleKpis({ ...c, alive: 0 }, { grams: 2000 }).notes).toContain('FCR needs live birds');
  });

  it('age from the hatch date, else the start date, up to the end date', () => {
    const today = new Date('2026-11-21T10:00:00Z');
    expect(ageDays('2026-11-01', '2026-11-03', null, today)).toBe(20);
    expect(ageDays(null, '2026-11-03', null, today)).toBe(18);
    expect(ageDays('2026-11-01', '2026-11-01', '2026-11-11', today)).toBe(10);
  });
});

describe('production stages and daily forms', () => {
  it('derives stages from bird type and age', () => {
    expect([0, 10, 11, 24, 25].map((d) => stageOf('broiler', d))).toEqual(['brooding', 'brooding', 'growing', 'growing', 'finishing']);
    expect([0, 27, 28, 125, 126].map((d) => stageOf('layer', d))).toEqual(['brooding', 'brooding', 'rearing', 'rearing', 'laying']);
  });

  it('names missing mandatory fields and implausible values', () => {
    const check = checkDailyRecord({ deaths: 0, feedKg: 100, waterLiters: 150, temperatureMinC: 30, temperatureMaxC: 28 }, 'brooding');
    expect(check.missingFields).toEqual(['humidityPct']);
    expect(check.warnings).toEqual(['temperatureMinC is above temperatureMaxC', 'water:feed ratio 1.50 is outside the normal 1.6–2.0']);
  });

  it('turns a form into movements and checks cross-field rules', () => {
    expect(movementsOfForm({ date: '2026-11-02', deaths: { heat: 2, disease: 0 }, culls: 1, feedKg: 0, eggsCollected: 10, eggsCracked: 1 }).map((m) => m.type)).toEqual([
      'bird_mortality', 'bird_cull', 'egg_collection',
    ]);
    expect(formProblems({ eggsCollected: 1, eggsDirty: 2 })).toEqual([{ field: 'body.eggsDirty', message: 'must not exceed eggsCollected' }]);
  });
});
