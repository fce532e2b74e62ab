import { describe, expect, it } from 'vitest';
import { ANALYTICS_DEFAULTS } from '../../schemas/analytics-config.js';
import { decideConfigChange } from '../../shared/domain/analytics/config.js';
import { decideWaterReading, eggProductionMovement } from '../../shared/domain/analytics/records.js';
import { Conflict, ValidationFailed } from '../../shared/errors.js';

/** The analytics configuration and the Analytics V2 records, decided without a database. */

const now = new Date('2026-03-10T10:00:00.000Z');
const by = { caller: { id: 'U1' }, requestId: 'req-1', now };
const current = { config: structuredClone(ANALYTICS_DEFAULTS), version: 4 };
const fieldsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationFailed) return (err.details ?? []).map((d) => d.field);
    throw err;
  }
  return [];
};

describe('analytics configuration changes', () => {
  it('changes nothing when the named sections are as they are', () => {
    expect(decideConfigChange(current, { thresholds: {} }, true, by)).toBeUndefined();
    expect(decideConfigChange(current, {}, false, by)).toBeUndefined();
  });

  it('a new version with the sections it changed, audited as a diff', () => {
    const decision = decideConfigChange(current, { thresholds: { waterPhMin: 6.1 } }, false, by);
    expect(decision?.next).toMatchObject({ version: 5, changedSections: ['thresholds'], updatedAt: now.toISOString(), updatedBy: 'U1', requestId: 'req-1' });
    expect(decision?.next.config.thresholds.waterPhMin).toBe(6.1);
    expect(decision?.audit[0]).toMatchObject({ action: 'analytics_config.update', targetId: 'analytics', changes: { thresholds: expect.any(Object) } });
    expect(decision?.changes).toEqual([{ type: 'analytics_config', id: 'analytics', op: 'upsert', version: 5, farmIds: [] }]);
  });

  it('refuses a low above its high, naming the field as the body does', () => {
    const broken = { thresholds: { humidityMinPct: 90, humidityMaxPct: 50 } };
    expect(fieldsOf(() => decideConfigChange(current, broken, false, by))).toEqual(['thresholds.humidityMinPct']);
    expect(fieldsOf(() => decideConfigChange(current, broken, true, by))).toEqual(['humidityMinPct']);
  });
});

describe('analytics records', () => {
  const flock = { id: 'K1', farmId: 'F1', birdType: 'layer', activeCycleId: 'C1' };

  it('egg production is an egg collection of the active cycle, today unless dated; not for broilers nor between cycles', () => {
    expect(eggProductionMovement(flock, { flockId: 'K1', totalEggs: 900 } as never, now)).toEqual({
      cycleId: 'C1',
      input: { type: 'egg_collection', date: '2026-03-10', totalEggs: 900 },
    });
    expect(() => eggProductionMovement({ ...flock, birdType: 'broiler', activeCycleId: null }, { flockId: 'K1' } as never, now)).toThrow(/broiler flock/);
    expect(() => eggProductionMovement({ ...flock, activeCycleId: null }, { flockId: 'K1' } as never, now)).toThrow(Conflict);
  });

  it('a water reading is dated within its cycle and not in the future', () => {
    const cycle = { id: 'C1', startDate: '2026-03-01', endDate: null };
    expect(fieldsOf(() => decideWaterReading(by.caller, flock, cycle, { flockId: 'K1', pH: 7, date: '2026-02-27' }, now))).toEqual(['date']);
    expect(fieldsOf(() => decideWaterReading(by.caller, flock, cycle, { flockId: 'K1', pH: 7, date: '2026-03-12' }, now))).toEqual(['date']);
    const { record, changes } = decideWaterReading(by.caller, flock, cycle, { flockId: 'K1', pH: 7.2 }, now);
    expect(record).toMatchObject({ flockId: 'K1', cycleId: 'C1', farmId: 'F1', date: '2026-03-10', pH: 7.2, tdsPpm: null, source: null, createdBy: 'U1' });
    expect(changes).toEqual([{ type: 'water_reading', id: record.id, op: 'upsert', farmIds: ['F1'] }]);
  });
});
