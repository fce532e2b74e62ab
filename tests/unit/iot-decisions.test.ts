import { describe, expect, it } from 'vitest';
import { systemCaller } from '../../shared/domain/caller.js';
import { unchanged } from '../../shared/domain/decision.js';
import { decideDeviceRegistration, decideDeviceRemoval, decideDeviceUpdate, decideSecretRotation } from '../../shared/domain/iot/devices.js';
import { ValidationFailed } from '../../shared/errors.js';
import type { CreateDeviceBody } from '../../schemas/iot.js';

/** The device registry's changes decided without a database: the refusals and the records returned. */

const caller = systemCaller('test', [], ['F1']);
const now = new Date('2026-03-04T10:00:00.000Z');
const later = new Date('2026-03-05T10:00:00.000Z');
const house = { id: 'H1', farmId: 'F1' };
const register = (body: Partial<CreateDeviceBody> = {}) =>
  decideDeviceRegistration(caller, house, { houseId: 'H1', kind: 'climate', name: ' Probe  1 ', ...body } as CreateDeviceBody, 'hash', now);

describe('device decisions', () => {
  it('registers a device in its house with its kind’s metrics, the default interval and only the secret’s hash; audited without it', () => {
    const { device, audit, changes } = register();
    expect(device).toMatchObject({
      farmId: 'F1',
      houseId: 'H1',
      name: 'Probe 1',
      metrics: ['temperatureC', 'humidityPct'],
      reportingIntervalSeconds: 60,
      secretHash: 'hash',
      keyIssuedAt: now.toISOString(),
      healthStatus: 'offline',
      createdBy: caller.id,
      version: 1,
    });
    expect(audit[0]).toMatchObject({ action: 'device.create', targetId: device.id });
    expect(audit[0]!.changes).not.toHaveProperty('secretHash');
    expect(audit[0]!.changes).not.toHaveProperty('latest');
    expect(changes).toEqual([{ type: 'device', id: device.id, op: 'upsert', version: 1, farmIds: ['F1'] }]);
  });

  it('refuses metrics its kind cannot measure, on registration and when a change names them', () => {
    expect(() => register({ metrics: ['siloKg'] })).toThrow(ValidationFailed);
    const { device } = register();
    expect(() => decideDeviceUpdate(device, { metrics: ['siloKg'] }, later)).toThrow(ValidationFailed);
  });

  it('changes the fields that differ at the next version; nothing when none differs', () => {
    const { device } = register();
    expect(unchanged(decideDeviceUpdate(device, { name: 'Probe 1', metrics: ['temperatureC', 'humidityPct'] }, later).change)).toBe(true);
    const { change, audit, changes } = decideDeviceUpdate(device, { houseId: 'H2', reportingIntervalSeconds: 60 }, later);
    expect(change.fields).toEqual({ houseId: 'H2' });
    expect(change.next).toMatchObject({ houseId: 'H2', version: 2, updatedAt: later.toISOString() });
    expect(audit).toEqual([{ action: 'device.update', targetType: 'device', targetId: device.id, changes: { houseId: { from: 'H1', to: 'H2' } } }]);
    expect(changes).toEqual([{ type: 'device', id: device.id, op: 'upsert', version: 2, farmIds: ['F1'] }]);
  });

  it('rotates the secret: a new hash and key time, audited with the time only', () => {
    const { device } = register();
    const rotation = decideSecretRotation(device, 'new-hash', later);
    expect(rotation.fields).toEqual({ secretHash: 'new-hash', keyIssuedAt: later.toISOString() });
    expect(rotation.next).toMatchObject({ secretHash: 'new-hash', keyIssuedAt: later.toISOString(), version: 2 });
    expect(rotation.audit[0]!.changes).toEqual({ keyIssuedAt: later.toISOString() });
  });

  it('removes a device, audited with its name and house', () => {
    const { device } = register();
    expect(decideDeviceRemoval(device)).toEqual({
      audit: [{ action: 'device.delete', targetType: 'device', targetId: device.id, changes: { name: 'Probe 1', houseId: 'H1' } }],
      changes: [{ type: 'device', id: device.id, op: 'delete', farmIds: ['F1'] }],
    });
  });
});
