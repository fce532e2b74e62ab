import { Type, type Static, type TProperties } from '@sinclair/typebox';
import { AuditEntryDto } from './admin.js';
import { StringEnum, Success, Ulid } from './common.js';
import { FigureDto } from './figures.js';
import { OccurrenceDto } from './schedules.js';
import { MEDICINE_UNITS } from './movements.js';
import {
  ANOMALY_STATUSES,
  BIRD_TYPES,
  DEVICE_STATUSES,
  INCIDENT_CATEGORIES,
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  RULE_SEVERITIES,
  type Role,
} from './vocabulary.js';
import { DailyRecordDue, Day, DayFiguresDto, EmptiedFlockDto, FlockCardDto, Int, NullableInt, Num, ViewerFlockDto } from './dashboard-cards.js';

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

const Summary = <P extends TProperties>(role: Role, properties: P, description: string) =>
  Type.Object(
    { role: Type.Literal(role, { description: 'Whose summary this is (the caller’s role)' }), ...properties },
    { $id: `${role[0]!.toUpperCase()}${role.slice(1)}Dashboard`, description },
  );

export const DashboardTotalsDto = Type.Object(
  {
    activeFlocks: Int,
    birdsAlive: Num,
    deathsToday: Num,
    deathsYesterday: Num,
    feedKgToday: Num,
    waterLitersToday: Num,
    eggsToday: Num,
    dailyRecordsMissing: Int,
  },
  {
    $id: 'DashboardTotals',
    description: 'Active flocks, birds alive, deaths today and yesterday, feed, water, eggs, daily forms missing (cycles that have started only)',
  },
);
export const DashboardAlertDto = Type.Object(
  {
    flockId: Ulid,
    flockName: Type.String(),
    date: Day,
    metric: StringEnum(['dailyMortality', 'waterPh', 'waterDrop', 'noDailyRecord'] as const),
    severity: StringEnum(['info', 'warning', 'critical'] as const),
    message: Type.String(),
  },
  { $id: 'DashboardAlert', description: 'Mortality above the alarm, water pH out of range, a drop in water' },
);
export const WithdrawalDto = Type.Object(
  {
    movementId: Ulid,
    flockId: Ulid,
    cycleId: Ulid,
    product: Type.Union([Type.String(), Type.Null()]),
    date: Day,
    endDate: Day,
    withdrawalDays: Num,
    daysLeft: Int,
  },
  { $id: 'Withdrawal', description: 'A medication whose withdrawal period is still running' },
);
export const SalmonellaDueDto = Type.Object(
  {
    flockId: Type.String(),
    flockName: Type.String(),
    cycleId: Type.String(),
    birdType: StringEnum(BIRD_TYPES),
    kind: StringEnum(['day_old', 'four_weeks', 'pre_move', 'laying', 'breeding', 'pre_slaughter'] as const, {
      description:
        'day_old: the chicks of a rearing flock on arrival; four_weeks: a breeders’ rearing flock at four weeks of age; pre_move: its pullets in the two weeks before they move to the laying unit or come into lay; laying: the laying hens every 15 weeks; breeding: adult breeders every second week in lay; pre_slaughter: broilers',
    }),
    status: StringEnum(['due', 'overdue'] as const, {
      description: 'due: its window is open and no sample is in it yet; overdue: its last day passed without a sample, and none was taken since',
    }),
    from: Day,
    dueBy: Day,
    daysLeft: Type.Integer({ description: 'Days left to sample, today included (due); 0 when overdue' }),
    daysOverdue: Type.Integer({ description: 'Days since its last day (overdue); 0 when due' }),
    lastSampleDate: Type.Union([Day, Type.Null()], { description: 'The cycle’s latest sample up to today' }),
  },
  {
    $id: 'SalmonellaSamplingDue',
    description:
      'A Salmonella sampling of an active cycle due or overdue today, dated as the compliance report’s salmonella_sampling rule dates it ' +
      '(rearing flocks of laying hens as day-old chicks and two weeks before they move to lay, Reg. (EC) 2160/2003 Annex II B; ' +
      'laying hens every 15 weeks from 24 ± 2 weeks of age, Reg. (EU) 517/2011; broilers in the 3 weeks before they leave, Reg. (EU) 200/2012)',
  },
);
const SalmonellaSamples = Type.Array(SalmonellaDueDto, {
  description: 'Salmonella samplings due or overdue in the active cycles: overdue first (longest first), then due (fewest days left first)',
});
const farmProperties = { date: Day, farmId: Type.String() };
const OpenAnomalyLineDto = Type.Object({
  id: Ulid,
  title: Type.String(),
  metric: Type.String(),
  severity: StringEnum(RULE_SEVERITIES),
  status: StringEnum(ANOMALY_STATUSES),
  houseId: Type.Union([Type.String(), Type.Null()]),
  flockId: Type.Union([Type.String(), Type.Null()]),
  firstSeenAt: Type.String({ format: 'date-time', description: 'When it was first seen (never in the future)' }),
  lastSeenAt: Type.String({ format: 'date-time', description: 'When it was last seen (never in the future)' }),
  check: Type.Union([Type.String(), Type.Null()], { description: 'The check the first hypothesis calls for' }),
});
const OpenIncidentsDto = (description: string) =>
  Type.Object(
    {
      count: Int,
      bySeverity: Type.Object({ critical: Int, high: Int, medium: Int, low: Int }),
      latest: Type.Array(
        Type.Object({
          id: Ulid,
          title: Type.String(),
          category: StringEnum(INCIDENT_CATEGORIES),
          severity: StringEnum(INCIDENT_SEVERITIES),
          status: StringEnum(INCIDENT_STATUSES),
          createdAt: Type.String(),
        }),
      ),
    },
    { description },
  );
const OpenAnomaliesDto = (description: string) =>
  Type.Object(
    {
      count: Int,
      bySeverity: Type.Object({ critical: Int, warning: Int, info: Int }),
      latest: Type.Array(OpenAnomalyLineDto),
    },
    { description },
  );
const managerProperties = {
  ...farmProperties,
  totals: DashboardTotalsDto,
  flocks: Type.Array(FlockCardDto),
  emptiedFlocks: Type.Array(EmptiedFlockDto, { description: 'Emptied flocks awaiting the close of their cycle, with the day they emptied' }),
  alerts: Type.Array(DashboardAlertDto),
  stock: Type.Object(
    {
      feed: Type.Array(Type.Object({ feedType: Type.String(), kg: Num })),
      eggs: Num,
      medicines: Type.Array(Type.Object({ product: Type.String(), unit: StringEnum(MEDICINE_UNITS), quantity: Num })),
    },
    { description: 'Feed per type, eggs, and vaccines and medicines per product and unit in stock' },
  ),
  withdrawals: Type.Array(WithdrawalDto),
  salmonellaSamples: SalmonellaSamples,
  openRecommendations: Type.Object(
    {
      count: Int,
      more: Type.Boolean(),
      latest: Type.Array(
        Type.Object({
          id: Ulid,
          flockId: Type.String(),
          category: Type.String(),
          priority: StringEnum(['low', 'medium', 'high'] as const),
          description: Type.String(),
        }),
      ),
    },
    { description: 'Open optimization recommendations (the latest 5 of at most 100 counted)' },
  ),
  devicesNotOnline: Type.Object(
    {
      count: Int,
      devices: Type.Array(
        Type.Object({
          id: Ulid,
          name: Type.String(),
          kind: Type.String(),
          houseId: Type.String(),
          status: StringEnum(DEVICE_STATUSES, { description: 'stale or offline (online devices are not listed)' }),
          lastSeen: Type.Union([Type.String(), Type.Null()]),
        }),
      ),
    },
    { description: 'Sensors that are stale or offline (from last seen against their reporting interval; the first 50 of at most 500 read)' },
  ),
  openIncidents: OpenIncidentsDto('Incidents triggered or acknowledged: the count, by severity, and the 5 newest'),
  openAnomalies: OpenAnomaliesDto('Anomalies open or acknowledged: the count, by severity, and the 5 most recently seen with their first check'),
};

export const ManagerDashboardDto = Summary(
  'manager',
  managerProperties,
  'A manager’s farm: KPIs, emptied flocks whose cycle is to close, alerts, stock, withdrawals, Salmonella samples due, open recommendations, sensors not online, open incidents',
);
export const WorkerDashboardDto = Summary(
  'worker',
  {
    ...farmProperties,
    tasks: Type.Array(
      Type.Object({
        kind: StringEnum(['daily_record', 'weighing'] as const),
        flockId: Ulid,
        flockName: Type.String(),
        cycleId: Ulid,
        due: Day,
        message: Type.String(),
      }),
      { description: 'Daily forms to fill (cycles that have started) and weighings due today: each one you can do' },
    ),
    dueActions: Type.Array(
      Type.Object({
        kind: StringEnum(['anomaly_check', 'incident'] as const),
        id: Ulid,
        title: Type.String(),
        severity: Type.String(),
        action: Type.String({ description: 'What to do: the check of the anomaly’s first hypothesis, or the incident’s next step' }),
        since: Type.String({
          format: 'date-time',
          description: 'Since when: the incident’s opening, the anomaly’s first sighting (a real instant, never in the future)',
        }),
      }),
      {
        description:
          'Incidents assigned to you (you may acknowledge them and add notes), then the checks of the farm’s open anomalies (most severe first, at most 10)',
      },
    ),
    flocks: Type.Array(
      Type.Object({
        flockId: Ulid,
        name: Type.String(),
        cycleId: Type.Union([Ulid, Type.Null()]),
        birdsAlive: Num,
        today: DayFiguresDto,
        dailyRecordToday: Type.Boolean(),
        dailyRecordDue: DailyRecordDue,
      }),
    ),
    agenda: Type.Object(
      {
        date: Type.String({ format: 'date', description: 'The farm’s today on its own clock (its IANA time zone)' }),
        occurrences: Type.Array(OccurrenceDto, { description: 'The schedules’ occurrences of today: due, done or skipped' }),
        overdue: Type.Array(OccurrenceDto, { description: 'Earlier occurrences (up to 92 days back) neither done nor skipped, oldest first' }),
      },
      { description: 'Today’s agenda of the farm’s schedules (GET /api/v1/schedules/agenda)' },
    ),
  },
  'A worker’s day: tasks, today’s agenda and the flocks’ figures of today',
);
export const VeterinarianDashboardDto = Summary(
  'veterinarian',
  {
    ...farmProperties,
    healthAlerts: Type.Array(DashboardAlertDto),
    withdrawals: Type.Array(WithdrawalDto),
    salmonellaSamples: SalmonellaSamples,
    openIncidents: OpenIncidentsDto('Open incidents of a disease suspicion, welfare or biosecurity: the count, by severity, and the 5 newest'),
    openAnomalies: OpenAnomaliesDto('Open anomalies of the birds’ health (mortality, intake, growth): the count, by severity, and the 5 most recently seen'),
    flocks: Type.Array(
      Type.Object({
        flockId: Ulid,
        name: Type.String(),
        ageDays: NullableInt,
        birdsAlive: Num,
        mortalityPct: FigureDto,
        deathsToday: Num,
        deathsYesterday: Num,
      }),
    ),
  },
  'A veterinarian’s farm: health alerts, withdrawal periods, Salmonella samples due, open health incidents, mortality',
);
export const ViewerDashboardDto = Summary(
  'viewer',
  {
    ...farmProperties,
    totals: DashboardTotalsDto,
    flocks: Type.Array(ViewerFlockDto),
  },
  'Read-only KPIs of a farm: a broiler flock’s headline KPIs, a laying flock’s card (hen-day, egg mass, feed per kg egg)',
);
export const AdminDashboardDto = Summary(
  'admin',
  {
    users: Type.Object(
      { total: Int, byRole: Type.Record(Type.String(), Int), locked: Int, unverified: Int },
      { description: 'Users by role, locked, unverified' },
    ),
    rateLimited: Type.Object(
      {
        days: Type.Array(Type.Object({ date: Day, total: Int, byClass: Type.Record(Type.String(), Int) })),
        note: Type.String(),
      },
      { description: 'Clients that went over a rate limit, per day of the last 7 (newest first) and per class' },
    ),
    system: Type.Object(
      { service: Type.String(), version: Type.String(), stage: Type.String(), database: Type.Literal('ok'), uptimeSeconds: Int },
      { description: 'Service, version, stage, database' },
    ),
    recentAudit: Type.Array(AuditEntryDto, { description: 'The last audit entries' }),
    farm: Type.Optional(Type.Object(managerProperties, { description: 'With farmId: that farm’s manager view' })),
  },
  'Users, system, rate-limit refusals of the last 7 days, recent audit; with `farmId` a farm’s manager view',
);

const VIEWS = {
  admin: AdminDashboardDto,
  manager: ManagerDashboardDto,
  worker: WorkerDashboardDto,
  veterinarian: VeterinarianDashboardDto,
  viewer: ViewerDashboardDto,
};
type DashboardView = Static<(typeof VIEWS)[keyof typeof VIEWS]>;
/** One summary per role, told apart by `role` (oneOf with a discriminator in the document). */
export const DashboardDto = Type.Unsafe<DashboardView>({
  oneOf: Object.values(VIEWS),
  discriminator: { propertyName: 'role', mapping: Object.fromEntries(Object.entries(VIEWS).map(([role, s]) => [role, `#/components/schemas/${s.$id}`])) },
  description: 'The summary of the caller’s role',
});
export const DashboardResponse = Success(DashboardDto);
