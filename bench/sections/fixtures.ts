/**
 * The bench's fixtures, through the real handlers in process: the seeded admin signed in, a broiler flock
 * with an active cycle, a bird inflow and a feed delivery in it. Installs the call probe on the service's
 * DynamoDB client first.
 */
import * as api from '../../tests/support/api.js';
import { seed } from '../../scripts/lib/seed.js';
import { db } from '../../shared/db/client.js';
import { getUser } from '../../shared/db/users.js';
import { signedIn } from '../../shared/http/middleware/authenticate.js';
import { verifyToken } from '../../shared/auth/tokens.js';
import { installProbe } from '../lib/db-probe.js';
import { day, expectStatus } from '../lib/requests.js';

export type Api = typeof api;

export interface CycleRef {
  flockId: string;
  cycleId: string;
  /** /api/v1/flocks/{flockId}/cycles/{cycleId} */
  base: string;
}

/** A body of the write scenarios: a water reading (no balance to check, so writers never run out). */
export const waterBody = () => ({ type: 'water_consumption', date: day(-1), liters: 12.5 });

export const ADMIN = { email: 'admin@bench.local', password: 'bench-admin-password-123' };

export async function benchFixtures() {
  installProbe(db());
  const { adminId, farmId } = await seed(ADMIN);
  const loginRes = await api.call('POST', '/api/v1/auth/login', { body: ADMIN });
  if (loginRes.status !== 200) throw new Error(`login failed: ${loginRes.raw}`);
  const token = loginRes.body.token as string;
  const claims = await verifyToken(token);
  const record = await getUser(adminId);
  const user = signedIn(record!, claims);

  /** A new broiler flock with an active cycle that started `startOffset` days ago. */
  async function newCycle(name: string, startOffset = -20): Promise<CycleRef> {
    const flock = expectStatus(
      await api.call('POST', '/api/v1/flocks', { token, body: { name, birdType: 'broiler', hatchDate: day(startOffset), farmId } }),
      201,
      'create flock',
    ).body.data;
    const cycle = expectStatus(
      await api.call('POST', `/api/v1/flocks/${flock.id}/cycles`, { token, body: { startDate: day(startOffset) } }),
      201,
      'create cycle',
    ).body.data;
    return { flockId: flock.id as string, cycleId: cycle.id as string, base: `/api/v1/flocks/${flock.id}/cycles/${cycle.id}` };
  }
  const main = await newCycle('Bench broilers');
  expectStatus(await api.call('POST', `${main.base}/movements`, { token, body: { type: 'bird_inflow', date: day(-20), quantity: 10000 } }), 201, 'inflow');
  const movementId = expectStatus(
    await api.call('POST', `${main.base}/movements`, { token, body: { type: 'feed_delivery', date: day(-19), feedType: 'starter', quantityKg: 2000 } }),
    201,
    'feed',
  ).body.data.id as string;
  return { api, adminId, farmId, token, claims, user, main, movementId, newCycle };
}

export type Fixtures = Awaited<ReturnType<typeof benchFixtures>>;
