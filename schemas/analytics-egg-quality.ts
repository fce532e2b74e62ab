/** The answer of the egg quality read of analytics V2: egg quality per period and its trend. */
import { Type } from '@sinclair/typebox';
import { StringEnum, Success } from './common.js';
import { CalendarDate } from './flocks.js';
import { FigureDto } from './figures.js';
import { AnalyticsCycleHeader, Int, NullableDate } from './analytics-common.js';

export const EggQualityPeriodDto = Type.Object(
  {
    period: Type.String({ description: 'The date (window day) or ISO week `YYYY-Www` (window week); the whole range `from/to` for `overall`' }),
    from: CalendarDate,
    to: CalendarDate,
    days: Int,
    eggsCollected: Int,
    eggsCracked: Int,
    eggsDirty: Int,
    eggsDoubleYolk: Int,
    crackedPct: FigureDto,
    dirtyPct: FigureDto,
    doubleYolkPct: FigureDto,
    saleableEggs: Int,
    saleablePct: FigureDto,
    averageEggWeightGrams: FigureDto,
    eggsWeighed: Int,
    henDays: Type.Union([Type.Number(), Type.Null()], {
      description:
        'Σ hens alive over the period’s days that count in hen-day (from the cycle’s first day with eggs, a day over or with its eggs recorded; a count); null when one has no hen count',
    }),
    henDayPct: FigureDto,
  },
  { $id: 'EggQualityPeriod' },
);
export const MetricTrendDto = Type.Object(
  {
    direction: StringEnum(['improving', 'stable', 'worsening', 'insufficient_data'] as const),
    unit: Type.String({ description: 'The metric’s unit (% or g); `mean` and `latest` are in it' }),
    points: Int,
    slopePerPeriod: FigureDto,
    slopePerWeek: FigureDto,
    tolerancePerWeek: Type.Number({ description: 'The threshold |slopePerWeek| must exceed to be a change, in the unit of `slopePerWeek`' }),
    mean: FigureDto,
    latest: FigureDto,
    reason: Type.Optional(Type.String()),
  },
  {
    $id: 'MetricTrend',
    description:
      'The direction of a metric over the last periods. Slopes are Figures: least-squares slope per period and per week, in pp/day or pp/week ' +
      '(percentage points) for a % metric, g/day or g/week for egg weight; `mean` and `latest` are Figures in the metric’s `unit`.',
  },
);
export const EggQualityTrendDto = Type.Object({
  window: StringEnum(['day', 'week'] as const),
  from: NullableDate,
  to: NullableDate,
  periods: Type.Array(EggQualityPeriodDto),
  overall: Type.Union([EggQualityPeriodDto, Type.Null()]),
  trend: Type.Object({
    periods: Int,
    from: NullableDate,
    to: NullableDate,
    crackedPct: MetricTrendDto,
    dirtyPct: MetricTrendDto,
    averageEggWeightGrams: MetricTrendDto,
  }),
});
export const EggQualityResponse = Success(
  Type.Object({ cycle: AnalyticsCycleHeader, ...EggQualityTrendDto.properties }, { description: 'Egg quality per period and its trend' }),
);
