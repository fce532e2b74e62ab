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
const SERIES_KEYS = [
  'bodyWeight',
  'dailyGain',
  'dailyFeedIntake',
  'cumulativeFeed',
  'cumulativeFcr',
  'waterIntake',
  'henDayPct',
  'henHousedPct',
  'henDayEggs',
  'henHousedEggs',
  'eggWeight',
  'eggWeightAverage',
  'eggMass',
  'henHousedEggMass',
  'rearingMortality',
  'rearingLivability',
  'mortality',
  'livability',
] as const;
const SERIES_UNITS = ['g', 'g/bird/day', 'kg', 'kg/kg', '%', 'ml/bird/day', 'eggs/hen', 'g/hen/day'] as const;
const SeriesBasisDto = StringEnum(['published', 'band midpoint', 'derived'] as const, {
  description:
    'How the guide gives the values: `published` as printed; `band midpoint` where it prints only a band (low–high) and no target: (low + high) ÷ 2, the band alongside; `derived` computed from other printed columns',
});
export const MetricComparisonDto = Type.Object(
  {
    actual: Num,
    standard: Num,
    unit: Type.String(),
    deviationPct: Type.Union([Type.Number(), Type.Null()], { description: '(actual − standard) ÷ standard × 100; null unless both are known' }),
    interpolated: Type.Boolean({ description: 'The standard was interpolated between two tabulated ages' }),
    standardBasis: Type.Optional(
      StringEnum(['band midpoint', 'derived'] as const, {
        description:
          'Present when the standard is not a value as printed: `band midpoint` where the guide prints only a band (low–high) and no target, (low + high) ÷ 2; `derived` computed from other printed columns',
      }),
    ),
    standardBand: Type.Optional(Type.Object({ low: Type.Number(), high: Type.Number() }, { description: 'The band (or range) the guide prints at that age' })),
    reason: Type.Optional(Type.String({ description: 'Why actual, standard or deviation is null' })),
    assumptions: Type.Optional(Assumptions),
  },
  { $id: 'MetricComparison' },
);
export const ComparisonDayDto = Type.Object(
  {
    date: CalendarDate,
    ageDays: Int,
    bodyWeight: MetricComparisonDto,
    cumulativeFcr: MetricComparisonDto,
    henDayPct: MetricComparisonDto,
    dailyFeedIntake: MetricComparisonDto,
    waterIntake: MetricComparisonDto,
    eggWeight: MetricComparisonDto,
    eggMass: MetricComparisonDto,
    henHousedEggs: MetricComparisonDto,
    livability: MetricComparisonDto,
  },
  {
    $id: 'ComparisonDay',
    description:
      'One day against the standard: weight (weighing days), cumulative FCR (broilers, weighing days), hen-day %, feed and water per bird, egg weight and egg mass (days with eggs weighed), hen-housed eggs to date, livability (rearing weeks against the guide’s rearing livability, lay against its livability from housing)',
  },
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
        key: StringEnum(SERIES_KEYS),
        label: Type.String(),
        unit: StringEnum(SERIES_UNITS),
        ageRange: Type.Object({ from: Type.Number(), to: Type.Number(), unit: AgeUnitDto }),
        ageRangeDays: Type.Object({ from: Type.Number(), to: Type.Number() }),
        basis: SeriesBasisDto,
        derivation: Type.Union([Type.String(), Type.Null()], { description: 'What a `derived` series is computed from' }),
        points: Type.Array(
          Type.Object({
            age: Type.Number(),
            ageDays: Type.Number(),
            value: Type.Number(),
            low: Type.Optional(Type.Number({ description: 'The low edge of the printed band' })),
            high: Type.Optional(Type.Number({ description: 'The high edge of the printed band' })),
          }),
        ),
      }),
    ),
  },
  {
    $id: 'BreedStandard',
    description:
      'A shipped standard and its tables: the broiler objectives by day (0–56), Hy-Line Brown by week (1–100: rearing weeks 1–17, production 18–100) and Lohmann Brown-Classic by week (body weight 1–95, production 19–95)',
  },
);
export const BreedStandardsResponse = Success(Type.Array(BreedStandardSummaryDto));
