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
export const CycleFinancialsDto = Type.Object(
  {
    currency: Type.String(),
    costs: Type.Object({
      chicks: FinancialLineDto,
      feed: Type.Object({ ...financialLineProperties, byType: Type.Array(FeedTypeCostDto) }),
      water: Type.Object({ ...financialLineProperties, liters: Type.Number() }),
      medication: FinancialLineDto,
      vaccination: Type.Object({ ...financialLineProperties, vaccinations: Type.Number() }),
      other: FinancialLineDto,
      total: Type.Number(),
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
    costPerEgg: FigureDto,
    costPerTray: FigureDto,
    feedCostSharePct: FigureDto,
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
