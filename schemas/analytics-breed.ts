/** The answers of analytics V2 about breed standards: a cycle against its standard, and the standards themselves. */
import { Type } from '@sinclair/typebox';
import { StringEnum, Success } from './common.js';
import { BIRD_TYPES } from './vocabulary.js';
import { CalendarDate } from './flocks.js';
import { Assumptions } from './figures.js';
import { AnalyticsCycleHeader, Int, Num, NullableInt, NullableString } from './analytics-common.js';

export const StandardStatusDto = StringEnum(['official', 'approximate'] as const);
export const StandardSource = Type.Object({ publisher: Type.String(), document: Type.String(), transcription: Type.String() });
export const StandardRefDto = Type.Object(
  { id: Type.String(), name: Type.String(), status: StandardStatusDto, edition: NullableInt, source: StandardSource },
  { $id: 'BreedStandardRef', description: 'The breed standard figures are compared with' },
);
export const MetricComparisonDto = Type.Object(
  {
    actual: Num,
    standard: Num,
    unit: Type.String(),
    deviationPct: Type.Union([Type.Number(), Type.Null()], { description: '(actual − standard) ÷ standard × 100; null unless both are known' }),
    interpolated: Type.Boolean({ description: 'The standard was interpolated between two tabulated ages' }),
    reason: Type.Optional(Type.String({ description: 'Why actual, standard or deviation is null' })),
    assumptions: Type.Optional(Assumptions),
  },
  { $id: 'MetricComparison' },
);
export const ComparisonDayDto = Type.Object(
  { date: CalendarDate, ageDays: Int, bodyWeight: MetricComparisonDto, cumulativeFcr: MetricComparisonDto, henDayPct: MetricComparisonDto },
  { $id: 'ComparisonDay' },
);
export const BreedComparisonDto = Type.Object(
  {
    breed: NullableString,
    standard: Type.Union([StandardRefDto, Type.Null()]),
    reason: Type.Optional(Type.String({ description: 'Why there is no standard (unknown breed)' })),
    interpolation: Type.String(),
    days: Type.Array(ComparisonDayDto),
  },
  { description: 'Actual vs standard per day; `standard: null` with a reason for breeds without one' },
);
export const BreedAnalyticsResponse = Success(Type.Object({ cycle: AnalyticsCycleHeader, comparison: BreedComparisonDto }));

const AgeUnitDto = StringEnum(['day', 'week'] as const);
export const BreedStandardSummaryDto = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    birdType: StringEnum(BIRD_TYPES),
    aliases: Type.Array(Type.String()),
    source: StandardSource,
    edition: NullableInt,
    status: StandardStatusDto,
    ageUnit: AgeUnitDto,
    note: NullableString,
    interpolation: Type.String(),
    series: Type.Array(
      Type.Object({
        key: StringEnum(['bodyWeight', 'dailyGain', 'dailyFeedIntake', 'cumulativeFeed', 'cumulativeFcr', 'henDayPct'] as const),
        label: Type.String(),
        unit: StringEnum(['g', 'g/bird/day', 'kg', 'kg/kg', '%'] as const),
        ageRange: Type.Object({ from: Type.Number(), to: Type.Number(), unit: AgeUnitDto }),
        ageRangeDays: Type.Object({ from: Type.Number(), to: Type.Number() }),
        points: Type.Array(Type.Object({ age: Type.Number(), ageDays: Type.Number(), value: Type.Number() })),
      }),
    ),
  },
  { $id: 'BreedStandard' },
);
export const BreedStandardsResponse = Success(Type.Array(BreedStandardSummaryDto));
