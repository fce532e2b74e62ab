/** Cycle fixtures through the real API: a flock with an active cycle, and shortcuts to write into it. */
import { expect } from 'vitest';
import { call } from './api.js';
import { userWith } from './accounts.js';

/** A calendar date `offset` days from today (UTC): tests never depend on the day they run. */
export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export interface CycleFixture {
  token: string;
  flock: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  cycle: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  base: string;
  move: (body: Record<string, unknown>) => Promise<void>;
}

export async function flockWithCycle(
  opts: {
    birdType?: string;
    breed?: string;
    startDate?: string;
    hatchDate?: string;
    token?: string;
    houseId?: string;
    farmId?: string;
    cycle?: Record<string, unknown>;
  } = {},
): Promise<CycleFixture> {
  const token = opts.token ?? (await userWith({ role: 'manager' })).token;
  const startDate = opts.startDate ?? day(-20);
  const flockRes = await call('POST', '/api/v1/flocks', {
    token,
    body: {
      name: 'Analytics flock',
      birdType: opts.birdType ?? 'broiler',
      hatchDate: opts.hatchDate ?? startDate,
      ...(opts.breed ? { breed: opts.breed } : {}),
      ...(opts.houseId ? { houseId: opts.houseId } : {}),
      ...(opts.farmId ? { farmId: opts.farmId } : {}),
    },
  });
  expect(flockRes.status, JSON.stringify(flockRes.body)).toBe(201);
  const flock = flockRes.body.data;
  const cycleRes = await call('POST', `/api/v1/flocks/${flock.id}/cycles`, { token, body: { startDate, ...opts.cycle } });
  expect(cycleRes.status, JSON.stringify(cycleRes.body)).toBe(201);
  const cycle = cycleRes.body.data;
  const base = `/api/v1/flocks/${flock.id}/cycles/${cycle.id}`;
  const move = async (body: Record<string, unknown>) => {
    const res = await call('POST', `${base}/movements`, { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };
  return { token, flock, cycle, base, move };
}
