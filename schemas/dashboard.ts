import { Type, type Static } from '@sinclair/typebox';
import { Success } from './common.js';

/** The dashboard (`/api/v1/dashboard`): one summary per role. */
export const dashboardQuery = Type.Object(
  {
    farmId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'The farm to summarise; default your only farm. Admins: adds that farm’s manager view',
      }),
    ),
  },
  { additionalProperties: false, $id: 'DashboardQuery' },
);
export type DashboardQuery = Static<typeof dashboardQuery>;

const Open = (description: string) => Type.Object({}, { additionalProperties: true, description });

export const DashboardResponse = Success(
  Type.Object(
    {
      role: Type.Unsafe<string>({
        type: 'string',
        enum: ['admin', 'manager', 'worker', 'veterinarian', 'viewer'],
        description: 'Whose summary this is (the caller’s role)',
      }),
      date: Type.Optional(Type.String({ format: 'date', description: 'The day the figures are of (UTC)' })),
      farmId: Type.Optional(Type.String()),
      totals: Type.Optional(Open('Manager/viewer: active flocks, birds alive, deaths today and yesterday, feed, water, eggs, daily forms missing')),
      flocks: Type.Optional(Type.Array(Open('One active flock: KPIs from its cycle counters, today’s and yesterday’s figures'))),
      alerts: Type.Optional(Type.Array(Open('Manager: mortality above the alarm, water pH out of range, a drop in water'))),
      stock: Type.Optional(Open('Manager: feed per type and eggs in stock')),
      withdrawals: Type.Optional(Type.Array(Open('Manager/veterinarian: medications whose withdrawal period is still running'))),
      openRecommendations: Type.Optional(Open('Manager: open optimization recommendations')),
      tasks: Type.Optional(Type.Array(Open('Worker: daily forms to fill and weighings due today'))),
      healthAlerts: Type.Optional(Type.Array(Open('Veterinarian: health alerts'))),
      users: Type.Optional(Open('Admin: users by role, locked, unverified')),
      system: Type.Optional(Open('Admin: service, version, stage, database')),
      rateLimited: Type.Optional(Open('Admin: clients that went over a rate limit, per day of the last 7 and per class')),
      recentAudit: Type.Optional(Type.Array(Open('Admin: the last audit entries'))),
      farm: Type.Optional(Open('Admin with farmId: that farm’s manager view')),
    },
    { additionalProperties: false },
  ),
);
