/** The answer of the suppliers read of analytics V2: supplier reliability from the cycle's feed deliveries. */
import { Type, type TSchema } from '@sinclair/typebox';
import { Success } from './common.js';
import { CalendarDate } from './flocks.js';
import { FigureDto } from './figures.js';
import { AnalyticsCycleHeader, Counts, Int } from './analytics-common.js';

const ScoreComponents = <T extends TSchema>(value: T) => Type.Object({ quality: value, onTime: value, quantity: value });
export const SupplierReliabilityDto = Type.Object({
  supplierId: Type.String(),
  deliveries: Int,
  kg: Type.Number(),
  feedTypes: Type.Record(Type.String(), Type.Object({ deliveries: Int, kg: Type.Number(), averagePricePerKg: FigureDto }), { description: 'Per feed type' }),
  firstDelivery: CalendarDate,
  lastDelivery: CalendarDate,
  onTime: Type.Object({ ratePct: FigureDto, onTime: Int, late: Int, averageDaysLate: FigureDto, averageLeadTimeDays: FigureDto }),
  quantity: Type.Object({ meanAbsVariancePct: FigureDto, meanVariancePct: FigureDto, shortDeliveries: Int, overDeliveries: Int, exactDeliveries: Int }),
  quality: Type.Object({ issueRatePct: FigureDto, deliveriesWithIssues: Int, issuesByKind: Counts('Quality issues per kind') }),
  price: Type.Object({ averagePerKg: FigureDto, pricedKg: Type.Number() }),
  otherCurrencyPrices: Type.Array(Type.Object({ currency: Type.String(), deliveries: Int, pricedKg: Type.Number(), averagePerKg: FigureDto }), {
    description:
      'Deliveries priced in another currency than `price` (orders in a currency other than the farm’s), averaged per currency and never added into `price` (there is no exchange rate)',
  }),
  components: ScoreComponents(FigureDto),
  score: FigureDto,
  basis: Type.Object({ onTime: Int, leadTime: Int, quantity: Int, quality: Int, price: Int }),
});
export const SupplierReliabilityReportDto = Type.Object({
  suppliers: Type.Array(SupplierReliabilityDto),
  deliveries: Int,
  kg: Type.Number(),
  scoreWeights: ScoreComponents(Type.Number()),
});
export const SuppliersResponse = Success(
  Type.Object(
    { cycle: AnalyticsCycleHeader, ...SupplierReliabilityReportDto.properties },
    { description: 'Supplier reliability from the cycle’s feed deliveries' },
  ),
);
