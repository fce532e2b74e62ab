/** The answer of the predictions read of analytics V2: body weight and layer production forecasts. */
import { Type } from '@sinclair/typebox';
import { StringEnum, Success } from './common.js';
import { CONFIDENCES } from './vocabulary.js';
import { CalendarDate } from './flocks.js';
import { Assumptions, FigureDto } from './figures.js';
import { AnalyticsCycleHeader, Int, Num, NullableDate, NullableInt } from './analytics-common.js';
import { StandardRefDto } from './analytics-breed.js';

export const WeightPredictionDto = Type.Object({
  fit: Type.Object({
    method: StringEnum(['breed_curve_scaled', 'breed_curve', 'linear_adg', 'none'] as const),
    standard: Type.Union([StandardRefDto, Type.Null()]),
    ratio: FigureDto,
    weighings: Int,
    lastWeighing: Type.Union([Type.Object({ date: CalendarDate, ageDays: Int, grams: Type.Number() }), Type.Null()]),
    residualRmsGrams: FigureDto,
    residualRmsPct: FigureDto,
    adgGramsPerDay: FigureDto,
    confidence: Type.Union([StringEnum(CONFIDENCES), Type.Null()]),
  }),
  atTargetAge: Type.Object({ ageDays: NullableInt, date: NullableDate, weight: FigureDto }),
  targetWeight: Type.Object({
    grams: Num,
    reached: Type.Boolean(),
    ageDays: NullableInt,
    date: NullableDate,
    reason: Type.Optional(Type.String()),
  }),
  assumptions: Assumptions,
  reason: Type.Optional(Type.String({ description: 'Why nothing could be predicted' })),
});
export const ProductionForecastDto = Type.Object({
  method: StringEnum(['breed_curve_scaled', 'breed_curve', 'recent_flat', 'none'] as const),
  standard: Type.Union([StandardRefDto, Type.Null()]),
  ratio: FigureDto,
  basis: Type.Union([Type.Object({ from: CalendarDate, to: CalendarDate, eggs: Type.Number(), henDayPct: FigureDto, standardEggs: Num }), Type.Null()]),
  hensAlive: Type.Number(),
  weeks: Type.Array(Type.Object({ week: Int, from: CalendarDate, to: CalendarDate, ageWeek: Int, henDayPct: FigureDto, eggs: FigureDto })),
  assumptions: Assumptions,
  reason: Type.Optional(Type.String()),
});
export const PredictionsDto = Type.Object(
  { weight: WeightPredictionDto, production: ProductionForecastDto },
  { description: 'Weight and production forecasts' },
);
export const PredictionsResponse = Success(Type.Object({ cycle: AnalyticsCycleHeader, predictions: PredictionsDto }));
