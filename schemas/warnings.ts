import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common.js';
import { CalendarDate } from './flocks.js';

/**
 * Warnings of writes that go ahead (`warnings` beside `data`, only when there is one): the stocking density
 * birds entering a house lead to (docs/domain.md, "Compliance"), and a farm stock short at a past date
 * (docs/decisions.md, "Balances at every date"). Apart from schemas/compliance.ts so the
 * movement routes that answer them do not bundle the whole compliance vocabulary.
 */
export const DensityWarningDto = Type.Object(
  {
    code: Type.Literal('stocking_density', { description: 'What the warning is about' }),
    message: Type.String({ description: 'The density, the limit and the date, in words' }),
    flockId: Type.String({ description: 'The flock whose house receives the birds' }),
    cycleId: Type.String(),
    houseId: Type.String(),
    date: CalendarDate,
    birds: Type.Integer({ description: 'Birds alive in the cycle once the write is recorded (later mortality not assumed)' }),
    areaM2: Type.Number({ description: 'The area the density is measured on, m²: the house’s usable area, or its cage area for hens in enriched cages' }),
    value: Type.Number({ description: 'The density on `date`: kg/m² (broilers) or birds/m² (layers and breeders)' }),
    limit: Type.Number({
      description: 'The farm’s declared tier, 33, 39 or 42 kg/m² (broilers); 9 hens/m² of usable area, or 13.33 hens/m² of cage area in enriched cages',
    }),
    unit: StringEnum(['kg/m2', 'birds/m2'] as const),
    weightGrams: Type.Union([Type.Number(), Type.Null()], { description: 'The weight the density counts (broilers)' }),
    weightSource: Type.Union([StringEnum(['forecast', 'breed_standard'] as const), Type.Null()], {
      description: 'forecast: the flock’s latest weight forecast; breed_standard: the breed’s standard weight at age',
    }),
    source: Type.String({ description: 'The public source of the limit' }),
  },
  {
    $id: 'StockingDensityWarning',
    description:
      'The birds placed or moved in would put the house above the stocking density limit on `date` (never a refusal: the write went ahead). ' +
      'Broilers: birds × the forecast (else breed-standard) weight ÷ the usable area, from the movement’s date to the expected harvest, against the farm’s tier ' +
      '(Council Directive 2007/43/EC, Art. 3); layers and breeders by head, on the movement’s date and on the day they reach laying maturity, against the rule of ' +
      'their stage and the house’s system (Council Directive 1999/74/EC: 9 hens/m² of usable area, 750 cm² of cage area per hen in enriched cages; none for pullets)',
  },
);
export type DensityWarning = Static<typeof DensityWarningDto>;

export const StockShortfallWarningDto = Type.Object(
  {
    code: Type.Literal('stock_short_at_date', { description: 'What the warning is about' }),
    message: Type.String(),
    stock: StringEnum(['feed', 'eggs', 'medicine'] as const),
    farmId: Type.String(),
    feedType: Type.Optional(Type.String()),
    product: Type.Optional(Type.String()),
    unit: Type.Optional(Type.String()),
    from: CalendarDate,
    until: Type.Union([CalendarDate, Type.Null()], { description: 'Back at or above zero from this date (null: not yet)' }),
    lowest: Type.Number({ description: 'The lowest balance of the run' }),
  },
  {
    $id: 'StockShortfallWarning',
    description: 'Accepted, but the stock was below zero from `from`: a back-dated entry whose delivery is not entered yet (the stock view lists it)',
  },
);
export type StockShortfallWarning = Static<typeof StockShortfallWarningDto>;

export type WriteWarning = DensityWarning | StockShortfallWarning;

/** `warnings` of a write's answer: present only when there is one. */
export const WriteWarnings = Type.Optional(
  Type.Array(Type.Union([DensityWarningDto, StockShortfallWarningDto]), {
    description: 'Present when the write went ahead with something to look at: the stocking density it leads to, a stock short at a past date',
  }),
);
