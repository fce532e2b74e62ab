/** The answer of the financials read of analytics V2: costs, revenue and margin from movements × pricing. */
import { Type } from '@sinclair/typebox';
import { StringEnum, Success } from './common.js';
import { Assumptions, FigureDto, figureProperties } from './figures.js';
import { AnalyticsCycleHeader, Num, NullableString } from './analytics-common.js';

const financialLineProperties = {
  amount: Type.Number({ description: 'Amount in `currency`' }),
  quantity: Type.Number({ description: 'The quantity priced, in `unit`' }),
  unit: Type.String({ description: 'What `quantity` counts: birds, kg, m3, treatments, bird-doses, eggs' }),
  pricedFromMovements: Type.Number(),
  pricedFromConfig: Type.Number(),
  amountFromMovements: Type.Number(),
  amountFromConfig: Type.Number(),
  averageUnitPrice: Num,
  assumptions: Assumptions,
};
export const FinancialLineDto = Type.Object(financialLineProperties, { $id: 'FinancialLine' });
export const FeedTypeCostDto = Type.Object({
  feedType: NullableString,
  consumedKg: Type.Number(),
  unitPrice: Type.Number(),
  priceSource: StringEnum(['deliveries', 'farmDeliveries', 'feedPerKgByType', 'feedPerKg'] as const),
  deliveredPricedKg: Type.Number(),
  amount: Type.Number(),
});
export const BirdSalesBreakdownDto = Type.Object({
  pricedBirds: Type.Number(),
  pricedRevenue: Type.Number(),
  weighedUnpricedBirds: Type.Number(),
  weighedUnpricedKg: Type.Number(),
  weighedUnpricedRevenue: Type.Number(),
  unweighedUnpricedBirds: Type.Number(),
  unweighedUnpricedRevenue: Type.Number(),
});
/** A Figure with `basis`: the division it is, written out with the numbers it used. */
const BasedFigure = (description: string) =>
  Type.Object({ ...figureProperties, basis: Type.String({ description: 'The division, with its numbers' }) }, { description });

export const CycleFinancialsDto = Type.Object(
  {
    currency: Type.String(),
    costs: Type.Object({
      chicks: FinancialLineDto,
      pullets: Type.Object(financialLineProperties, {
        description:
          'Birds transferred in from another flock at the cost per bird their transfer carried (unitCost of bird_transfer_in/out): the pullet cost of a laying cycle',
      }),
      feed: Type.Object({ ...financialLineProperties, byType: Type.Array(FeedTypeCostDto) }),
      water: Type.Object({ ...financialLineProperties, liters: Type.Number() }),
      medication: FinancialLineDto,
      vaccination: Type.Object({ ...financialLineProperties, vaccinations: Type.Number() }),
      other: FinancialLineDto,
      gross: Type.Number({ description: 'Σ of the cost lines: every cost this cycle paid or took over' }),
      transferredOut: Type.Object(financialLineProperties, {
        description:
          'Birds transferred out at the cost per bird their transfer carried: the cost leaves with them (the receiving cycle counts it as its pullet cost), so the farm does not count it twice',
      }),
      total: Type.Number({ description: 'gross − transferredOut: the cost this cycle keeps' }),
    }),
    revenue: Type.Object({
      birds: Type.Object({ ...financialLineProperties, breakdown: BirdSalesBreakdownDto }),
      eggs: FinancialLineDto,
      total: Type.Number(),
    }),
    margin: FigureDto,
    marginPct: FigureDto,
    kgProduced: Type.Object({ ...figureProperties, soldKg: Type.Number(), aliveKg: Num, birdsAlive: Type.Number(), birdsSoldUnweighed: Type.Number() }),
    costPerKgLiveweight: FigureDto,
    costPerBirdPlaced: FigureDto,
    costPerBirdAlive: BasedFigure(
      'Total cost ÷ birds alive at asOf: a rearing cycle’s cost per pullet so far, the unitCost to send with a transfer of its birds to the laying flock',
    ),
    costPerEgg: FigureDto,
    costPerTray: FigureDto,
    feedCostSharePct: FigureDto,
    layer: Type.Object(
      {
        hensHoused: Type.Number({ description: 'Birds placed + transferred in' }),
        marginPerHenHoused: BasedFigure('Margin ÷ hens housed'),
        feedPerHenHousedKg: BasedFigure('Feed consumed kg ÷ hens housed'),
        eggMassKg: BasedFigure('Σ eggs × recorded egg weight ÷ 1,000 (eggs without a weight at the weighed eggs’ average, else fallbacks.eggWeightGrams)'),
        costPerDozenEggs: BasedFigure('Total cost × 12 ÷ eggs collected'),
        costPerKgEggs: BasedFigure('Total cost ÷ egg mass kg'),
      },
      { description: 'Per hen housed and per egg: layers and breeders (a broiler cycle answers null with the reason)' },
    ),
    quantities: Type.Object({
      feedBagKg: Type.Number(),
      feedDeliveredKg: Type.Number(),
      feedDeliveredBags: Type.Number(),
      feedConsumedKg: Type.Number(),
      feedConsumedBags: Type.Number(),
      eggsPerTray: Type.Number(),
      eggsCollected: Type.Number(),
      eggsCollectedTrays: Type.Number(),
      eggsSold: Type.Number(),
      eggsSoldTrays: Type.Number(),
    }),
    assumptions: Assumptions,
  },
  { description: 'Costs, revenue and margin from movements × pricing' },
);
export const FinancialsResponse = Success(Type.Object({ cycle: AnalyticsCycleHeader, financials: CycleFinancialsDto }));
