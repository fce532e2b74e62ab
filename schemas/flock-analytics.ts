import { Type, type Static } from '@sinclair/typebox';
import { StringEnum, Success, Ulid } from './common.js';
import { CalendarDate } from './flocks.js';
import { DatedFigureDto, FigureDto } from './figures.js';
import { COMPARE_MAX, COMPARE_MIN, RANKABLE_KPIS } from './vocabulary.js';

/**
 * Flock analytics (`/api/v1/flock-analytics`): a flock's KPI history across its cycles, flocks and cycles
 * side by side, a farm's flocks ranked by one KPI, and the catalogue of rankable KPIs. Every KPI is a
 * Figure computed from the cycle record's running counters (shared/domain/flock-analytics.ts), but the
 * layer figures that count days, from the cycle's daily rollups (shared/domain/analytics/layer-figures.ts).
 * The flock path parameter is AnalyticsFlockParams (schemas/analytics.ts).
 */

export const compareFlocksQuery = Type.Object(
  {
    flockIds: Type.Optional(
      Type.String({
        maxLength: 400,
        description: `Flock ids, comma-separated: each stands for its active cycle, else its latest cycle. With \`cycles\`, ${COMPARE_MIN} to ${COMPARE_MAX} items in all`,
        examples: ['01JD3Y4Z9V6Q8K2M5N7P0R1S3T,01JD3Y4Z9V6Q8K2M5N7P0R1S3V'],
      }),
    ),
    cycles: Type.Optional(
      Type.String({
        maxLength: 700,
        description: `Cycles as flockId:cycleId pairs, comma-separated. With \`flockIds\`, ${COMPARE_MIN} to ${COMPARE_MAX} items in all`,
        examples: ['01JD3Y4Z9V6Q8K2M5N7P0R1S3T:01JD3Y4Z9V6Q8K2M5N7P0R1S3W,01JD3Y4Z9V6Q8K2M5N7P0R1S3V:01JD3Y4Z9V6Q8K2M5N7P0R1S3X'],
      }),
    ),
  },
  { additionalProperties: false, $id: 'CompareFlocksQuery' },
);
export type CompareFlocksQuery = Static<typeof compareFlocksQuery>;

export const RANKING_STATUSES = ['active', 'all'] as const;

export const flockRankingQuery = Type.Object(
  {
    kpi: Type.Optional(StringEnum(RANKABLE_KPIS, { default: 'fcr', description: 'The KPI to rank by (GET /api/v1/flock-analytics/kpis); default fcr' })),
    farmId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'The farm; may be omitted when you are assigned to exactly one farm (admins must name one)',
      }),
    ),
    status: Type.Optional(
      StringEnum(RANKING_STATUSES, {
        default: 'active',
        description:
          'active (default): the active flocks, each by its active cycle; all: active and archived flocks, each by its active cycle, else its latest cycle',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'How many flocks to return, best first (1–100, default 25)' })),
  },
  { additionalProperties: false, $id: 'FlockRankingQuery' },
);
export type FlockRankingQuery = Static<typeof flockRankingQuery>;

// ---------------------------------------------------------------------------------------------------
// Answers

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(s: T) => Type.Union([s, Type.Null()]);
const BETTER = ['higher', 'lower'] as const;

export const FlockKpisDto = Type.Object(
  {
    birdsHoused: FigureDto,
    birdsAlive: FigureDto,
    mortalityPct: FigureDto,
    livabilityPct: FigureDto,
    feedConsumedKg: FigureDto,
    fcr: FigureDto,
    avgWeight: DatedFigureDto,
    ageDays: FigureDto,
    adg: FigureDto,
    epef: FigureDto,
    eggsCollected: FigureDto,
    henHousedEggs: FigureDto,
    feedPerEgg: FigureDto,
    feedPerDozenEggs: FigureDto,
    waterFeedRatio: FigureDto,
    henDayPct: FigureDto,
    eggMassGrams: FigureDto,
    feedPerKgEgg: FigureDto,
  },
  {
    $id: 'FlockCycleKpis',
    description:
      'KPIs of a cycle from its running counters, each a Figure (value + unit, or null + reason); the layer figures that count days ' +
      '(henDayPct, eggMassGrams, feedPerKgEgg, feedPerEgg, feedPerDozenEggs) from its daily rollups, as the Analytics V2 cycle KPIs count them',
  },
);

const FlockHeadDto = Type.Object(
  {
    id: Ulid,
    name: Type.String(),
    farmId: Type.String(),
    houseId: Nullable(Type.String()),
    birdType: StringEnum(['broiler', 'layer', 'breeder'] as const),
    breed: Nullable(Type.String()),
    hatchDate: Nullable(CalendarDate),
    status: StringEnum(['active', 'archived'] as const),
    activeCycleId: Nullable(Ulid),
  },
  { $id: 'FlockAnalyticsFlock' },
);

const CycleHeadDto = Type.Object(
  {
    id: Ulid,
    name: Nullable(Type.String()),
    status: StringEnum(['active', 'closed'] as const),
    startDate: CalendarDate,
    endDate: Nullable(CalendarDate),
    ageDays: Type.Integer(),
  },
  { $id: 'FlockAnalyticsCycle' },
);

const KpiChangeDto = Type.Object({
  previous: Nullable(Type.Number({ description: 'The previous cycle’s value, in `unit` (its Figure, with the reason when null, is in that cycle’s `kpis`)' })),
  delta: Nullable(Type.Number({ description: 'This cycle − the previous one, in `unit` (percentage points for a % KPI)' })),
  unit: Type.String({ description: 'The KPI’s unit' }),
  improved: Nullable(
    Type.Boolean({ description: 'For the better (higher or lower per the catalogue); false when unchanged; null without a direction or a delta' }),
  ),
});

const perKpi = <T extends Parameters<typeof Type.Union>[0][number]>(item: T, description: string) =>
  Type.Object(Object.fromEntries(RANKABLE_KPIS.map((k) => [k, Nullable(item)])), { description });

export const FlockHistoryResponse = Success(
  Type.Object({
    asOf: CalendarDate,
    flock: FlockHeadDto,
    complete: Type.Boolean({ description: 'False when the flock has more than 100 cycles (the oldest are left out)' }),
    cycles: Type.Array(
      Type.Object({
        cycle: CycleHeadDto,
        kpis: FlockKpisDto,
        changes: Nullable(
          Type.Object(Object.fromEntries(Object.keys(FlockKpisDto.properties).map((k) => [k, KpiChangeDto])), {
            description: 'Change of each KPI vs the previous cycle (null for the first)',
          }),
        ),
      }),
      { description: 'Every cycle of the flock, oldest first' },
    ),
    best: perKpi(Type.Object({ cycleId: Ulid, figure: FigureDto }), 'The flock’s best cycle per rankable KPI (null when no cycle has a value)'),
  }),
);

export const CompareFlocksResponse = Success(
  Type.Object({
    asOf: CalendarDate,
    items: Type.Array(
      Type.Object({
        key: Type.String({ description: 'The item as named: flockId, or flockId:cycleId' }),
        selectedBy: StringEnum(['active_cycle', 'latest_cycle', 'named', 'none'] as const, {
          description: 'Which cycle stands for the item (none: the flock has no cycle)',
        }),
        flock: FlockHeadDto,
        cycle: Nullable(CycleHeadDto),
        kpis: FlockKpisDto,
      }),
    ),
    best: perKpi(
      Type.Object({ item: Type.Integer({ description: 'Index in items' }), key: Type.String(), flockId: Ulid, cycleId: Nullable(Ulid), figure: FigureDto }),
      'The best item per rankable KPI (the first of equals; null when no item has a value)',
    ),
  }),
);

const KpiDefinitionDto = Type.Object(
  {
    name: StringEnum(RANKABLE_KPIS),
    unit: Type.String(),
    better: StringEnum(BETTER),
    birdTypes: Type.Optional(Type.Array(Type.String(), { description: 'Bird types the KPI exists for' })),
    description: Type.String(),
  },
  { $id: 'FlockKpiDefinition' },
);

export const FlockRankingResponse = Success(
  Type.Object({
    farmId: Type.String(),
    kpi: KpiDefinitionDto,
    status: StringEnum(RANKING_STATUSES),
    asOf: CalendarDate,
    total: Type.Integer({ description: 'Flocks considered' }),
    ranked: Type.Integer({ description: 'Flocks with a value' }),
    complete: Type.Boolean({ description: 'False when the farm has more than 1000 flocks (the rest are not ranked)' }),
    flocks: Type.Array(
      Type.Object({
        rank: Nullable(Type.Integer({ minimum: 1, description: '1 = best; equal values share a rank' })),
        flock: FlockHeadDto,
        cycle: Nullable(CycleHeadDto),
        selectedBy: StringEnum(['active_cycle', 'latest_cycle', 'none'] as const),
        figure: FigureDto,
      }),
      { description: 'Best first; flocks without a value last (by name), the Figure saying why' },
    ),
  }),
);

export const KpiCatalogueResponse = Success(Type.Array(KpiDefinitionDto));
