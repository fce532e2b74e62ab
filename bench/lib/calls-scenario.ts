/**
 * The fixed scenario of `npm run bench:calls`: one farm's life, in one order, every request through the
 * real handler and its middleware. `measure` sends a request whose DynamoDB calls are counted (one row of
 * the table per route, or per variant of a route: each movement type is one); `setup` sends one that only
 * prepares the next (a second flock for the transfer, a layer flock for the eggs). Dates are relative to
 * today and every id comes from an earlier answer, so two runs on the same code make the same calls.
 */
import { day } from './requests.js';

export interface Step {
  method: string;
  /** The concrete path; the row is named by the route's template. */
  path: string;
  /** Tells two rows of one route apart (e.g. the movement type). */
  variant?: string;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** The signed-in user's token, unless the route takes none (sign-in, a device's key). */
  anonymous?: boolean;
  /** The status the step must answer; anything else stops the run. */
  status: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the steps read ids out of any answer
type Answer = { status: number; body: any; raw: string };
export type Send = (step: Step) => Promise<Answer>;

export const SCENARIO_ADMIN = { email: 'admin@calls.bench.local', password: 'calls-bench-admin-password-1' };

/** The previous full UTC hour, minute by minute: `count` sensor frames of one hour whatever the time of the run. */
function framesOfLastHour(count: number) {
  const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000;
  return Array.from({ length: count }, (_, i) => ({
    ts: new Date(hour + i * 60_000).toISOString(),
    metrics: { temperatureC: 24 + (i % 3) / 10, humidityPct: 60 + (i % 4) },
  }));
}

export async function callsScenario(measure: Send, setup: Send): Promise<void> {
  await measure({ method: 'POST', path: '/api/v1/auth/login', body: SCENARIO_ADMIN, anonymous: true, status: 200 });

  // ---- farm and house ----------------------------------------------------------------------------------------
  const farm = await measure({ method: 'POST', path: '/api/v1/config/farms', body: { name: 'Calls farm', timezone: 'UTC' }, status: 201 });
  const farmId = farm.body.data.id as string;
  await measure({ method: 'GET', path: `/api/v1/config/farms/${farmId}`, status: 200 });
  await measure({
    method: 'PATCH',
    path: `/api/v1/config/farms/${farmId}`,
    body: { name: 'Calls farm (renamed)' },
    headers: { 'If-Match': '"1"' },
    status: 200,
  });
  const houseBody = { name: 'House 1', usableAreaM2: 1200, capacity: 20000 };
  const house = await measure({ method: 'POST', path: `/api/v1/config/farms/${farmId}/houses`, body: houseBody, status: 201 });
  const houseId = house.body.data.id as string;
  await measure({ method: 'PATCH', path: `/api/v1/config/farms/${farmId}/houses/${houseId}`, body: { capacity: 21000 }, status: 200 });

  // ---- flock and cycle ------------------------------------------------------------------------------------------
  const flockBody = { name: 'Batch 1', birdType: 'broiler', breed: 'Ross 308', farmId, houseId, hatchDate: day(-20) };
  const flockId = (await measure({ method: 'POST', path: '/api/v1/flocks', body: flockBody, status: 201 })).body.data.id as string;
  await measure({ method: 'GET', path: `/api/v1/flocks/${flockId}`, status: 200 });
  await measure({ method: 'PATCH', path: `/api/v1/flocks/${flockId}`, body: { name: 'Batch 1 (Ross)' }, status: 200 });
  const cycleBody = { startDate: day(-20), targetAgeDays: 42 };
  const cycleId = (await measure({ method: 'POST', path: `/api/v1/flocks/${flockId}/cycles`, body: cycleBody, status: 201 })).body.data.id as string;
  const base = `/api/v1/flocks/${flockId}/cycles/${cycleId}`;
  await measure({ method: 'GET', path: base, variant: 'new cycle', status: 200 });

  // ---- movements --------------------------------------------------------------------------------------------------
  const move = async (body: Record<string, unknown>, path = base) =>
    (await measure({ method: 'POST', path: `${path}/movements`, variant: String(body.type), body, status: 201 })).body.data.id as string;
  const inflowId = await move({ type: 'bird_inflow', date: day(-20), quantity: 10000, averageWeightGrams: 42 });
  await move({ type: 'feed_delivery', date: day(-20), feedType: 'starter', quantityKg: 5000, unitPrice: 0.45 });
  await move({ type: 'feed_consumption', date: day(-19), quantityKg: 120 });
  const mortalityId = await move({ type: 'bird_mortality', date: day(-19), quantity: 12, cause: 'heat' });

  // eggs: a layer flock of the same farm, in lay
  const layers = (
    await setup({ method: 'POST', path: '/api/v1/flocks', body: { name: 'Layers 1', birdType: 'layer', farmId, hatchDate: day(-160) }, status: 201 })
  ).body.data.id as string;
  const layerCycle = (await setup({ method: 'POST', path: `/api/v1/flocks/${layers}/cycles`, body: { startDate: day(-30) }, status: 201 })).body.data
    .id as string;
  const layerBase = `/api/v1/flocks/${layers}/cycles/${layerCycle}`;
  await setup({ method: 'POST', path: `${layerBase}/movements`, body: { type: 'bird_inflow', date: day(-30), quantity: 1000 }, status: 201 });
  await move({ type: 'egg_collection', date: day(-2), totalEggs: 900, cracked: 10, dirty: 5 }, layerBase);

  // a bird transfer to a second broiler flock of the farm, in its active cycle
  const second = (
    await setup({ method: 'POST', path: '/api/v1/flocks', body: { name: 'Batch 2', birdType: 'broiler', farmId, hatchDate: day(-20) }, status: 201 })
  ).body.data.id as string;
  await setup({ method: 'POST', path: `/api/v1/flocks/${second}/cycles`, body: { startDate: day(-20) }, status: 201 });
  await move({ type: 'bird_transfer_out', date: day(-10), quantity: 500, counterpartFlockId: second });

  const mortality = `${base}/movements/${mortalityId}`;
  await measure({ method: 'PATCH', path: mortality, body: { quantity: 11 }, headers: { 'If-Match': '"1"' }, status: 200 });
  await measure({ method: 'PUT', path: `${base}/movements/${inflowId}/lock`, body: { reason: 'checked against the delivery note' }, status: 200 });
  await measure({ method: 'PUT', path: `${base}/movements/${inflowId}/unlock`, body: { reason: 'count corrected by the hatchery' }, status: 200 });
  await measure({ method: 'DELETE', path: mortality, status: 204 });

  // ---- daily record, weights, scale, sensors -----------------------------------------------------------------------
  const record = { date: day(-18), deaths: { unknown: 5 }, culls: 1, feedKg: 150, waterLiters: 300, temperatureMinC: 30, temperatureMaxC: 33, humidityPct: 60 };
  await measure({ method: 'POST', path: `${base}/daily-records`, body: record, status: 201 });
  await measure({
    method: 'POST',
    path: `${base}/weights`,
    body: { date: day(-13), samples: [190, 200, 205, 210, 195, 215, 185, 200, 205, 195] },
    status: 201,
  });
  const device = await measure({ method: 'POST', path: '/api/v1/iot/devices', body: { farmId, houseId, kind: 'climate', name: 'Climate front' }, status: 201 });
  const scale = await setup({ method: 'POST', path: '/api/v1/iot/devices', body: { farmId, houseId, kind: 'scale', name: 'Scale 1' }, status: 201 });
  const weighings = Array.from({ length: 50 }, (_, i) => ({ at: `${day(-12)}T08:${String(i).padStart(2, '0')}:00Z`, grams: 380 + ((i * 37) % 60) }));
  await measure({ method: 'POST', path: '/api/v1/scale', body: { flockId, deviceId: scale.body.data.id, weighings }, status: 200 });
  const deviceKey = { 'X-Device-Key': device.body.data.deviceKey as string };
  await measure({ method: 'POST', path: '/api/v1/iot/ingest', headers: deviceKey, body: { readings: framesOfLastHour(10) }, anonymous: true, status: 200 });

  // ---- incidents, schedules, rules -----------------------------------------------------------------------------------
  const incident = await measure({
    method: 'POST',
    path: '/api/v1/operations/incidents',
    body: { farmId, title: 'Water line 2 dry', category: 'water', severity: 'high' },
    status: 201,
  });
  await measure({ method: 'PATCH', path: `/api/v1/operations/incidents/${incident.body.data.id}`, body: { severity: 'medium' }, status: 200 });
  const vaccination = { vaccine: 'ND Clone 30', method: 'water', dose: '1 dose per bird' };
  const scheduleBody = { farmId, flockId, cycleId, kind: 'vaccination', title: 'ND booster', details: vaccination, timing: { once: day(-1) } };
  const schedule = (await measure({ method: 'POST', path: '/api/v1/schedules', body: scheduleBody, status: 201 })).body.data.id as string;
  await measure({ method: 'PATCH', path: `/api/v1/schedules/${schedule}`, body: { title: 'ND booster (water)' }, status: 200 });
  await measure({ method: 'POST', path: `/api/v1/schedules/${schedule}/occurrences/${day(-1)}/complete`, body: { notes: 'All houses' }, status: 201 });
  const rule = { name: 'Mortality above 1 %', input: 'dailyMortalityPct', window: 'P1D', aggregation: 'last', condition: { op: '>', value: 1 } };
  const ruleBody = { ...rule, scope: { farmId }, severity: 'warning', actions: ['raise_anomaly'] };
  const ruleId = (await measure({ method: 'POST', path: '/api/v1/rules', body: ruleBody, status: 201 })).body.data.id as string;
  await measure({ method: 'PATCH', path: `/api/v1/rules/${ruleId}`, body: { enabled: false }, status: 200 });

  // ---- purchasing -------------------------------------------------------------------------------------------------------
  const supplierBody = { name: 'Valley Feeds', kinds: ['feed'], farmIds: [farmId] };
  const supplierId = (await measure({ method: 'POST', path: '/api/v1/procurement/suppliers', body: supplierBody, status: 201 })).body.data.id as string;
  const line = { itemKind: 'feed', feedType: 'grower', quantity: 1000, unit: 'kg', unitPrice: 0.42 };
  const order = await measure({
    method: 'POST',
    path: '/api/v1/procurement/orders',
    body: { farmId, supplierId, lines: [line], expectedDate: day(0) },
    status: 201,
  });
  const orderId = order.body.data.id as string;
  await measure({ method: 'POST', path: `/api/v1/procurement/orders/${orderId}/place`, body: {}, headers: { 'If-Match': '"1"' }, status: 200 });
  const receipt = { date: day(0), lines: [{ lineId: order.body.data.lines[0].id, quantity: 1000, flockId, lotNumber: 'LOT-1' }] };
  await measure({ method: 'POST', path: `/api/v1/procurement/orders/${orderId}/receipts`, body: receipt, status: 201 });

  // ---- reads ----------------------------------------------------------------------------------------------------------------
  await measure({ method: 'GET', path: base, variant: 'after movements', status: 200 });
  await measure({ method: 'GET', path: `${base}/movements`, query: { limit: '50' }, status: 200 });
  await measure({ method: 'GET', path: `/api/v2/analytics/cycle/${flockId}/${cycleId}`, status: 200 });
  await measure({ method: 'GET', path: '/api/v1/anomalies', query: { farmId }, status: 200 });
  await measure({ method: 'GET', path: '/api/v1/dashboard', query: { farmId }, status: 200 });
  await measure({ method: 'GET', path: '/api/v1/inventory/stock', query: { farmId }, status: 200 });
  await measure({ method: 'GET', path: '/api/v1/sharing/transfers', query: { farmId }, status: 200 });
  await measure({ method: 'GET', path: `/api/v1/compliance/cycles/${flockId}/${cycleId}/report`, status: 200 });

  // ---- users, and the cycle closed --------------------------------------------------------------------------------------------
  const userBody = { email: 'manager@calls.bench.local', password: 'calls-bench-manager-password-1', name: 'Farm manager', role: 'manager', farmIds: [farmId] };
  const userId = (await measure({ method: 'POST', path: '/api/v1/admin/users', body: userBody, status: 201 })).body.data.id as string;
  await measure({ method: 'PATCH', path: `/api/v1/admin/users/${userId}`, body: { name: 'Farm manager (nights)' }, status: 200 });
  await measure({ method: 'POST', path: `${base}/close`, body: { endDate: day(0) }, status: 200 });
}
