/** IoT fixtures: a farm with a house and a manager, devices registered through the API, frames to post. */
import { expect } from 'vitest';
import { call } from './api.js';
import { userWith } from './accounts.js';
import { house, otherFarm } from './farms.js';

export interface IotFarm {
  farmId: string;
  houseId: string;
  token: string;
}

export async function iotFarm(): Promise<IotFarm> {
  const farmId = await otherFarm('Sensor farm');
  const houseId = await house(farmId, 'Sensor house');
  const { token } = await userWith({ role: 'manager', farmIds: [farmId] });
  return { farmId, houseId, token };
}

export interface RegisteredDevice {
  id: string;
  key: string;
  version: number;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function registerDevice(f: IotFarm, body: Record<string, unknown> = {}): Promise<RegisteredDevice> {
  const res = await call('POST', '/api/v1/iot/devices', { token: f.token, body: { houseId: f.houseId, kind: 'climate', name: 'Climate front', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.id, key: res.body.data.deviceKey, version: res.body.data.version, body: res.body.data };
}

export const ingest = (key: string, readings: unknown[], opts: { ip?: string } = {}) =>
  call('POST', '/api/v1/iot/ingest', { headers: { 'X-Device-Key': key }, body: { readings }, ...(opts.ip ? { ip: opts.ip } : {}) });

/** An ISO time `minutesAgo` minutes before now, on a whole minute. */
export const minutesAgo = (minutes: number, nowMs = Date.now()) => new Date(Math.floor(nowMs / 60_000) * 60_000 - minutes * 60_000).toISOString();
