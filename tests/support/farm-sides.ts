/** One side of a transfer between farms: a farm of its own, its manager and a layer cycle started 20 days ago. */
import { call } from './api.js';
import { userWith } from './accounts.js';
import { otherFarm } from './farms.js';
import { day, flockWithCycle } from './cycles.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function farmSide(name: string) {
  const farmId = await otherFarm(name);
  const manager = await userWith({ role: 'manager', farmIds: [farmId] });
  const c = await flockWithCycle({ token: manager.token, farmId, birdType: 'layer', startDate: day(-20) });
  const summary = async () => (await call('GET', c.base, { token: manager.token })).body.data as Json;
  const stock = async () => (await call('GET', '/api/v1/inventory/stock', { token: manager.token, query: { farmId } })).body.data as Json;
  const post = (body: Json) => call('POST', `${c.base}/movements`, { token: manager.token, body });
  return { farmId, manager, token: manager.token, flockId: c.flock.id as string, cycleId: c.cycle.id as string, move: c.move, post, summary, stock };
}
export type Side = Awaited<ReturnType<typeof farmSide>>;
