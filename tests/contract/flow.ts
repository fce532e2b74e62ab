/**
 * A client flow as an integrator writes it: openapi-fetch over the types openapi-typescript generates from
 * the served /openapi.json (tests/contract/generated/api.d.ts, written by typed-client.test.ts). The test
 * type-checks this file on its own (tests/contract/tsconfig.json: strict, against the generated types
 * only) and then runs it against serverless-offline.
 *
 * No `any` and no `as` here: where the document is too loose to read a value, the flow narrows it at run
 * time and the test's report lists those places (LOOSE; none today).
 */
import createClient from 'openapi-fetch';
// `flockwise-api`: the generated types (tests/contract/tsconfig.json maps it to generated/api.d.ts). The
// repository's own typecheck, which runs before anything is generated, sees the loose stand-in of
// ./flockwise-api.d.ts instead: this file is checked against the real types by the contract test only.
import type { components, paths } from 'flockwise-api';

type DailyRecordBody = components['schemas']['DailyRecordBody'];
type FormFieldName = components['schemas']['DailyFormField']['name'];

/** Where the generated types were too loose to use a value as it comes (the test prints this list). */
export const LOOSE: readonly string[] = [];

export interface FlowReport {
  statuses: Record<string, number>;
  /** Stage and required fields per date, as the form route answered them. */
  forms: Array<{ date: string; stage: string; required: FormFieldName[] }>;
  summary: { placed: number; alive: number; deaths: number; feedDeliveredKg: number; feedConsumedKg: number; latestWeightGrams: number | null };
  mortalityPct: number | null;
  movement: { before: number; after: number; version: number };
}

const DAY = 86_400_000;
const dayFromToday = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

/** The values this client fills in for each field a form may require (one house day of ~5,000 broilers). */
const VALUES: Required<Omit<DailyRecordBody, 'date'>> = {
  deaths: 5,
  culls: 0,
  cullReason: 'none',
  feedKg: 300,
  feedType: 'starter',
  waterLiters: 540,
  eggsCollected: 0,
  eggsCracked: 0,
  eggsDirty: 0,
  eggsFloor: 0,
  eggsDoubleYolk: 0,
  eggGrades: {},
  averageEggWeightGrams: 60,
  lightHours: 23,
  longestDarkHours: 1,
  temperatureMinC: 29,
  temperatureMaxC: 32,
  humidityPct: 60,
  notes: 'contract flow',
};

export async function runFlow(baseUrl: string, admin: { email: string; password: string }): Promise<FlowReport> {
  const statuses: Record<string, number> = {};
  /** The body of a success, else an error naming the step with the status and the error body. */
  function must<T>(step: string, res: { data?: T; error?: unknown; response: Response }): T {
    statuses[step] = res.response.status;
    if (res.data === undefined) throw new Error(`${step}: ${res.response.status} ${JSON.stringify(res.error)}`);
    return res.data;
  }

  const api = createClient<paths>({ baseUrl });
  const login = must('login', await api.POST('/api/v1/auth/login', { body: { email: admin.email, password: admin.password } }));
  api.use({
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${login.token}`);
      return request;
    },
  });

  const hatch = dayFromToday(-20);
  const farm = must('create farm', await api.POST('/api/v1/config/farms', { body: { name: `Contract farm ${Date.now()}`, timezone: 'Europe/Amsterdam' } }));
  const house = must(
    'create house',
    await api.POST('/api/v1/config/farms/{farmId}/houses', {
      params: { path: { farmId: farm.data.id } },
      body: { name: 'House 1', usableAreaM2: 500, capacity: 8000 },
    }),
  );
  const flock = must(
    'create flock',
    await api.POST('/api/v1/flocks', {
      body: { name: 'Contract batch', birdType: 'broiler', breed: 'Ross 308', farmId: farm.data.id, houseId: house.data.id, hatchDate: hatch },
    }),
  );
  const cycle = must(
    'create cycle',
    await api.POST('/api/v1/flocks/{flockId}/cycles', { params: { path: { flockId: flock.data.id } }, body: { startDate: hatch, targetAgeDays: 42 } }),
  );
  const path = { flockId: flock.data.id, cycleId: cycle.data.id };

  must(
    'placement',
    await api.POST('/api/v1/flocks/{flockId}/cycles/{cycleId}/movements', {
      params: { path },
      body: { type: 'bird_inflow', date: hatch, quantity: 5000, averageWeightGrams: 42 },
    }),
  );
  const delivery = must(
    'feed delivery',
    await api.POST('/api/v1/flocks/{flockId}/cycles/{cycleId}/movements', {
      params: { path },
      body: { type: 'feed_delivery', date: hatch, feedType: 'starter', quantityKg: 4000 },
    }),
  );

  // A week of daily records, ages 8 to 14: the stage changes from brooding to growing on day 11, and
  // with it the required fields. The form route says which; the client sends exactly those.
  const forms: FlowReport['forms'] = [];
  for (let age = 8; age <= 14; age++) {
    const date = dayFromToday(-20 + age);
    const form = must(`form ${date}`, await api.GET('/api/v1/flocks/{flockId}/cycles/{cycleId}/daily-records/form', { params: { path, query: { date } } }));
    const required: FormFieldName[] = [];
    for (const field of form.data.requiredFields) required.push(field.name);
    forms.push({ date, stage: form.data.stage, required });
    const body: DailyRecordBody = { date };
    for (const name of required) Object.assign(body, { [name]: VALUES[name] });
    must(`daily record ${date}`, await api.POST('/api/v1/flocks/{flockId}/cycles/{cycleId}/daily-records', { params: { path }, body }));
  }

  must(
    'weights',
    await api.POST('/api/v1/flocks/{flockId}/cycles/{cycleId}/weights', {
      params: { path },
      body: { date: dayFromToday(-6), samples: [470, 490, 500, 505, 510, 495, 485, 520, 515, 510] },
    }),
  );

  const kpis = must('analytics cycle KPIs', await api.GET('/api/v2/analytics/cycle/{flockId}/{cycleId}', { params: { path } }));

  // A movement read and written back: the object the GET returned, without its read-only metadata, with the
  // delivery's quantity corrected (a movement is read and written with the same fields).
  const movementPath = { ...path, movementId: delivery.data.id };
  const read = await api.GET('/api/v1/flocks/{flockId}/cycles/{cycleId}/movements/{movementId}', { params: { path: movementPath } });
  const current = must('movement GET', read).data;
  if (current.type !== 'feed_delivery') throw new Error(`expected the feed delivery, got ${current.type}`);
  const before = current.quantityKg;
  const etag = read.response.headers.get('ETag') ?? `"${current.version}"`;
  const {
    id: _id,
    flockId: _flockId,
    cycleId: _cycleId,
    farmId: _farmId,
    lock: _lock,
    createdAt: _createdAt,
    createdBy: _createdBy,
    updatedAt: _updatedAt,
    ...writable
  } = current;
  const written = must(
    'movement PATCH',
    await api.PATCH('/api/v1/flocks/{flockId}/cycles/{cycleId}/movements/{movementId}', {
      params: { path: movementPath, header: { 'If-Match': etag } },
      body: { ...writable, quantityKg: before + 250 },
    }),
  ).data;
  if (written.type !== 'feed_delivery') throw new Error(`expected the feed delivery, got ${written.type}`);

  const summary = must('cycle summary', await api.GET('/api/v1/flocks/{flockId}/cycles/{cycleId}', { params: { path } })).data;
  return {
    statuses,
    forms,
    summary: {
      placed: summary.birds.placed,
      alive: summary.birds.alive,
      deaths: summary.birds.deaths,
      feedDeliveredKg: summary.feed.deliveredKg,
      feedConsumedKg: summary.feed.consumedKg,
      latestWeightGrams: summary.latestWeight?.grams ?? null,
    },
    mortalityPct: kpis.data.kpis.mortalityPct.value,
    movement: { before, after: written.quantityKg, version: written.version },
  };
}
