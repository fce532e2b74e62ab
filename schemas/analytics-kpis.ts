/** The answers of the daily and cycle KPI reads of analytics V2: every KPI a Figure. */
import { Type } from '@sinclair/typebox';
import { StringEnum, Success, Ulid } from './common.js';
import { BIRD_TYPES, CONFIDENCES, PHASES, WEIGHT_METHODS } from './vocabulary.js';
import { CalendarDate } from './flocks.js';
import { DatedFigureDto, FigureDto, figureProperties } from './figures.js';
import { AnalyticsCycleHeader, Counts, Int, NullableDate, NullableInt, NullableString } from './analytics-common.js';

export const WeightFigureDto = Type.Object(
  {
    ...figureProperties,
    date: Type.Union([CalendarDate, Type.Null()], { description: 'When the weight was measured (the weighing’s date, or the day’s for a standard)' }),
    source: Type.Union([StringEnum(['weighing', 'breed_standard'] as const), Type.Null()]),
  },
  { $id: 'WeightFigure', description: 'A body weight Figure (g) with its date and where it came from' },
);

const eggFigures = {
  henDayPct: FigureDto,
  henHousedPct: FigureDto,
  henHousedEggs: FigureDto,
  eggWeightGrams: FigureDto,
  eggMassGrams: FigureDto,
  feedPerKgEgg: FigureDto,
  feedPerDozenEggs: FigureDto,
  crackedPct: FigureDto,
  dirtyPct: FigureDto,
};
const growthFigures = {
  bodyWeight: WeightFigureDto,
  liveWeightKg: FigureDto,
  fcr: FigureDto,
  correctedFcr: FigureDto,
  adgSincePlacement: FigureDto,
  adgSinceLastWeighing: FigureDto,
  epef: FigureDto,
};
const stockingDensity = { stockingDensityKgPerM2: FigureDto, stockingDensityBirdsPerM2: FigureDto };

export const DayBirdsDto = Type.Object({
  aliveStart: Int,
  placed: Int,
  transferredIn: Int,
  present: Int,
  deaths: Int,
  culls: Int,
  sold: Int,
  transferredOut: Int,
  aliveEnd: Int,
  housed: Int,
});

const FigureSourceDto = Type.Union([StringEnum(['manual', 'sensor'] as const), Type.Null()]);

export const DailyKpisDto = Type.Object(
  {
    date: CalendarDate,
    dayOfCycle: Int,
    ageDays: Int,
    phase: StringEnum(PHASES),
    birds: DayBirdsDto,
    deathsByCause: Counts('Deaths that day per cause'),
    sources: Type.Object(
      { waterLiters: FigureSourceDto, feedKg: FigureSourceDto },
      {
        description:
          'Where the day’s water and feed figures come from: manual (recorded movements, which always win), sensor (the house’s water meters and silo load cells, on a day without a manual figure), or null (none)',
      },
    ),
    dailyMortalityPct: FigureDto,
    cumulativeMortalityPct: FigureDto,
    livabilityPct: FigureDto,
    feedKg: FigureDto,
    cumulativeFeedKg: FigureDto,
    feedGramsPerBird: FigureDto,
    waterLiters: FigureDto,
    waterMlPerBird: FigureDto,
    waterFeedRatio: FigureDto,
    expectedWaterLiters: FigureDto,
    waterPctOfExpected: FigureDto,
    eggs: Type.Object({ collected: Int, cracked: Int, dirty: Int, doubleYolk: Int, cumulative: Int }),
    ...stockingDensity,
    ...eggFigures,
    ...growthFigures,
  },
  { $id: 'DailyKpis', description: 'Every KPI of one calendar day of the cycle' },
);

export const CycleKpisDto = Type.Object(
  {
    cycleId: Ulid,
    flockId: Ulid,
    birdType: StringEnum(BIRD_TYPES),
    breed: NullableString,
    breedStandard: Type.Union([Type.Object({ id: Type.String(), name: Type.String(), status: StringEnum(['official', 'approximate'] as const) }), Type.Null()]),
    status: StringEnum(['active', 'closed'] as const),
    startDate: CalendarDate,
    asOf: CalendarDate,
    days: Type.Integer({ description: 'Days in the series (start to asOf, both included)' }),
    ageDays: NullableInt,
    phase: Type.Union([StringEnum(PHASES), Type.Null()]),
    performanceDate: Type.Union([CalendarDate, Type.Null()], { description: 'The day the weight, FCR, ADG and EPEF are of: the last day with birds' }),
    birds: Type.Object({ placed: Int, transferredIn: Int, housed: Int, deaths: Int, culls: Int, sold: Int, transferredOut: Int, alive: Int }),
    deathsByCause: Counts('Deaths per cause over the cycle'),
    mortalityPct: FigureDto,
    livabilityPct: FigureDto,
    feedConsumedKg: FigureDto,
    feedDeliveredKg: FigureDto,
    waterLiters: FigureDto,
    waterFeedRatio: FigureDto,
    latestWeighing: Type.Union([
      Type.Object({
        date: CalendarDate,
        ageDays: Int,
        grams: Type.Number(),
        method: StringEnum(WEIGHT_METHODS),
        confidence: StringEnum(CONFIDENCES),
        sampleSize: NullableInt,
      }),
      Type.Null(),
    ]),
    uniformityPct: DatedFigureDto,
    cvPct: DatedFigureDto,
    eggs: Type.Object({ collected: Int, cracked: Int, dirty: Int, doubleYolk: Int }),
    layingPeriod: Type.Union([Type.Object({ from: CalendarDate, to: CalendarDate, days: Int }), Type.Null()], {
      description:
        'The days the egg rates count: from the first day with eggs collected, each day over (before the farm’s today) or with its eggs recorded; null before any egg',
    }),
    peakProduction: Type.Object({ henDayPct: FigureDto, ageWeek: NullableInt, from: NullableDate, to: NullableDate }),
    ...stockingDensity,
    ...eggFigures,
    ...growthFigures,
  },
  { $id: 'CycleKpis', description: 'Every KPI of the cycle' },
);

export const DailyAnalyticsResponse = Success(Type.Object({ cycle: AnalyticsCycleHeader, days: Type.Array(DailyKpisDto) }));
export const CycleAnalyticsResponse = Success(Type.Object({ cycle: AnalyticsCycleHeader, kpis: CycleKpisDto }));
