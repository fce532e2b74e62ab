import { Type, type Static } from '@sinclair/typebox';
import { CurrencyCode, ExpectedVersion, FarmDate, ListOf, pageQueryProperties, StringEnum, Success, Timestamp, Ulid, UlidOf } from './common.js';
import { WriteWarnings } from './warnings.js';
import { CalendarDate } from './flocks.js';
import { FEED_QUALITY_ISSUES } from './movements.js';
import { SupplierReliabilityDto } from './analytics-suppliers.js';
import { FigureDto } from './figures.js';

/**
 * Procurement (`/api/v1/procurement`): suppliers, purchase orders and their receipts (which write the
 * ledger: feed deliveries, chick placements), supplier reliability and reorder suggestions.
 */

export const SUPPLIER_KINDS = ['feed', 'chicks', 'vaccines', 'medication', 'equipment'] as const;
export type SupplierKind = (typeof SUPPLIER_KINDS)[number];
export const ORDER_STATUSES = ['draft', 'ordered', 'partially_received', 'received', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_UNITS = ['kg', 'birds', 'doses', 'l', 'units'] as const;
export type OrderUnit = (typeof ORDER_UNITS)[number];
export const ORDER_ACTIONS = ['place', 'cancel'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

const RecordId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const Text = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description });
const FarmIdOpt = Type.Optional(Type.String({ ...RecordId, description: 'The farm (required when you see more than one)' }));
export const SupplierKind = StringEnum(SUPPLIER_KINDS, { description: 'feed, chicks, vaccines, medication or equipment' });
export const OrderStatus = StringEnum(ORDER_STATUSES, {
  description: 'draft → ordered → partially_received → received; draft, ordered or partially_received → cancelled',
});
const Contact = Type.Object(
  {
    person: Type.Optional(Text(120, 'Who to talk to')),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    phone: Type.Optional(Type.String({ minLength: 3, maxLength: 40, pattern: '^[0-9+()./ -]+$' })),
    address: Type.Optional(Text(500, 'Postal address')),
  },
  { additionalProperties: false, description: 'How to reach the supplier' },
);
const Kinds = Type.Array(SupplierKind, { minItems: 1, maxItems: SUPPLIER_KINDS.length, uniqueItems: true, description: 'What it supplies' });
const FarmIds = Type.Array(RecordId, { minItems: 1, maxItems: 100, uniqueItems: true, description: 'The farms it serves (farms of yours)' });

export const supplierParams = Type.Object({ supplierId: UlidOf('Id of the supplier') }, { additionalProperties: false, $id: 'SupplierParams' });
export type SupplierParams = Static<typeof supplierParams>;

export const createSupplierBody = Type.Object(
  { name: Text(200, 'Trading name'), kinds: Kinds, contact: Type.Optional(Contact), farmIds: FarmIds },
  { additionalProperties: false, $id: 'CreateSupplierBody' },
);
export type CreateSupplierBody = Static<typeof createSupplierBody>;

export const updateSupplierBody = Type.Object(
  {
    name: Type.Optional(Text(200, 'Trading name')),
    kinds: Type.Optional(Kinds),
    contact: Type.Optional(Contact),
    farmIds: Type.Optional(FarmIds),
    version: Type.Optional(ExpectedVersion),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateSupplierBody' },
);
export type UpdateSupplierBody = Static<typeof updateSupplierBody>;

export const listSuppliersQuery = Type.Object(
  {
    farmId: FarmIdOpt,
    kind: Type.Optional(SupplierKind),
    includeArchived: Type.Optional(Type.Boolean({ default: false, description: 'Also the archived suppliers (deleted while they had orders)' })),
    ...pageQueryProperties,
  },
  { additionalProperties: false, $id: 'ListSuppliersQuery' },
);
export type ListSuppliersQuery = Static<typeof listSuppliersQuery>;

const OrderLine = Type.Object(
  {
    itemKind: SupplierKind,
    feedType: Type.Optional(Text(60, 'Feed type (feed lines): the stock it goes to, e.g. starter')),
    product: Type.Optional(Text(120, 'Product (other lines)')),
    quantity: Type.Number({ exclusiveMinimum: 0, maximum: 10_000_000, description: 'Quantity ordered, in `unit`' }),
    unit: StringEnum(ORDER_UNITS, { description: 'kg for feed, birds for chicks; doses, l, units or kg for the others' }),
    unitPrice: Type.Number({ minimum: 0, maximum: 100_000_000, description: 'Price per unit' }),
  },
  { additionalProperties: false },
);
const OrderLines = Type.Array(OrderLine, { minItems: 1, maxItems: 20, description: 'What is ordered (1–20 lines)' });

export const orderParams = Type.Object({ orderId: UlidOf('Id of the purchase order') }, { additionalProperties: false, $id: 'OrderParams' });
export type OrderParams = Static<typeof orderParams>;

/** An order's expected date: any day the schema takes, a past one too. */
const EXPECTED_DATE =
  'The delivery day the supplier promised, on the farm’s calendar; a past day is taken (an order entered after the fact) and the audit entry of its creation and placement records it as `backdated: {date, enteredOn}`';

/** An order's currency: recorded as given (an ISO 4217 code). */
const ORDER_CURRENCY = CurrencyCode(
  'ISO 4217 currency of the line prices (default: the farm’s pricing currency). Another currency than the farm’s is recorded as given; its prices stay on the order and enter no farm total (docs/decisions.md, "Procurement")',
);

export const createOrderBody = Type.Object(
  {
    farmId: Type.Optional(Type.String({ ...RecordId, description: 'The farm; may be left out when you are assigned to one farm' })),
    supplierId: Ulid,
    lines: OrderLines,
    expectedDate: FarmDate(EXPECTED_DATE),
    allowOverDelivery: Type.Optional(Type.Boolean({ default: false, description: 'Accept receipts beyond the quantity ordered' })),
    currency: Type.Optional(ORDER_CURRENCY),
    notes: Type.Optional(Text(2000, 'Free text')),
  },
  { additionalProperties: false, $id: 'CreateOrderBody' },
);
export type CreateOrderBody = Static<typeof createOrderBody>;

export const updateOrderBody = Type.Object(
  {
    lines: Type.Optional(OrderLines),
    expectedDate: Type.Optional(FarmDate(EXPECTED_DATE)),
    allowOverDelivery: Type.Optional(Type.Boolean()),
    currency: Type.Optional(ORDER_CURRENCY),
    notes: Type.Optional(Type.Union([Text(2000, 'Free text'), Type.Null()])),
    version: Type.Optional(ExpectedVersion),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateOrderBody' },
);
export type UpdateOrderBody = Static<typeof updateOrderBody>;

export const orderActionBody = Type.Object(
  { note: Type.Optional(Text(2000, 'Why (kept in the audit log)')), version: Type.Optional(ExpectedVersion) },
  { additionalProperties: false, $id: 'OrderActionBody' },
);
export type OrderActionBody = Static<typeof orderActionBody>;

export const listOrdersQuery = Type.Object(
  { farmId: FarmIdOpt, status: Type.Optional(OrderStatus), supplierId: Type.Optional(Ulid), ...pageQueryProperties },
  { additionalProperties: false, $id: 'ListOrdersQuery' },
);
export type ListOrdersQuery = Static<typeof listOrdersQuery>;

export const createReceiptBody = Type.Object(
  {
    date: FarmDate(
      'The day the goods arrived, on the farm’s calendar: not after the farm’s today (400: they cannot have arrived yet); any earlier day is taken, also one before the order was placed or its supplier entered (a delivery note entered after the fact), and the audit entry records it as `backdated: {date, enteredOn}`',
    ),
    lines: Type.Array(
      Type.Object(
        {
          lineId: Ulid,
          quantity: Type.Number({ exclusiveMinimum: 0, maximum: 10_000_000, description: 'Quantity received, in the line’s unit' }),
          flockId: Type.Optional(
            Type.String({
              pattern: Ulid.pattern,
              description:
                'The flock (of the order’s farm) whose active cycle records the line: required for chick lines; feed, vaccine and medication lines without it are booked on the farm’s stock (no cycle), the way a farm between cycles or before placement receives them',
            }),
          ),
          houseId: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 64,
              pattern: '^[A-Za-z0-9_-]+$',
              description:
                'A feed, vaccine or medication line booked on the farm (without flockId): the house bin it goes to, a house of the order’s farm (any other id answers 404)',
            }),
          ),
          lotNumber: Type.Optional(Text(64, 'Lot / batch number')),
          qualityIssues: Type.Optional(
            Type.Array(StringEnum(FEED_QUALITY_ISSUES), { uniqueItems: true, maxItems: FEED_QUALITY_ISSUES.length, description: 'Problems found on receipt' }),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 20 },
    ),
    notes: Type.Optional(Text(2000, 'Free text')),
  },
  { additionalProperties: false, $id: 'CreateReceiptBody' },
);
export type CreateReceiptBody = Static<typeof createReceiptBody>;

export const suggestionsQuery = Type.Object(
  {
    farmId: FarmIdOpt,
    coverDays: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 90, default: 14, description: 'Days of feed each suggested order should cover (default 14)' }),
    ),
  },
  { additionalProperties: false, $id: 'SuggestionsQuery' },
);
export type SuggestionsQuery = Static<typeof suggestionsQuery>;

// ---------------------------------------------------------------------------------------------------
// Responses

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description?: string) =>
  Type.Union([t, Type.Null()], description ? { description } : {});

export const SupplierDto = Type.Object(
  {
    id: Ulid,
    name: Type.String(),
    kinds: Type.Array(SupplierKind),
    contact: Contact,
    farmIds: Type.Array(Type.String(), { description: 'The farms it serves that you can see' }),
    archived: Type.Boolean({ description: 'Deleted while it had orders: kept for their history, takes no new orders' }),
    orderCount: Type.Integer({ description: 'Purchase orders ever created with it' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    version: Type.Integer(),
  },
  { $id: 'Supplier' },
);
export const SupplierResponse = Success(SupplierDto);
export const SupplierListResponse = ListOf(SupplierDto);

export const OrderLineDto = Type.Object(
  {
    id: Ulid,
    itemKind: SupplierKind,
    feedType: Nullable(Type.String()),
    product: Nullable(Type.String()),
    quantity: Type.Number(),
    unit: StringEnum(ORDER_UNITS),
    unitPrice: Type.Number(),
    receivedQuantity: Type.Number({ description: 'Received so far (all receipts)' }),
  },
  { $id: 'PurchaseOrderLine' },
);
export const ReceiptDto = Type.Object(
  {
    id: Ulid,
    orderId: Ulid,
    date: CalendarDate,
    lines: Type.Array(
      Type.Object({
        lineId: Ulid,
        quantity: Type.Number(),
        flockId: Nullable(Type.String()),
        cycleId: Nullable(Type.String()),
        movementId: Nullable(Type.String({ description: 'The ledger movement it wrote (feed_delivery, bird_inflow); null for other kinds' })),
        lotNumber: Nullable(Type.String()),
        qualityIssues: Type.Array(Type.String()),
      }),
    ),
    notes: Nullable(Type.String()),
    receivedBy: Type.String(),
    createdAt: Timestamp,
  },
  { $id: 'PurchaseReceipt' },
);
export const OrderDto = Type.Object(
  {
    id: Ulid,
    farmId: Type.String(),
    supplierId: Ulid,
    status: OrderStatus,
    lines: Type.Array(OrderLineDto),
    expectedDate: CalendarDate,
    allowOverDelivery: Type.Boolean(),
    notes: Nullable(Type.String()),
    total: Type.Number({ description: 'Σ quantity × unitPrice, in `currency`' }),
    currency: Nullable(
      Type.String(),
      'ISO 4217 currency of the prices and the total (null: an order drafted before orders recorded one, priced in its farm’s currency)',
    ),
    orderedAt: Nullable(Timestamp, 'When it was placed'),
    receivedAt: Nullable(Timestamp, 'When it was fully received'),
    cancelledAt: Nullable(Timestamp),
    createdBy: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    version: Type.Integer(),
  },
  { $id: 'PurchaseOrder' },
);
export const OrderResponse = Success(OrderDto);
export const OrderWithReceiptsResponse = Success(
  Type.Composite([OrderDto, Type.Object({ receipts: Type.Array(ReceiptDto, { description: 'Oldest first' }) })], { $id: 'PurchaseOrderWithReceipts' }),
);
export const OrderListResponse = ListOf(OrderDto);
/** The order and its receipt, and the warnings when chicks placed would put their house above the stocking density limit. */
export const ReceiptResponse = Type.Object({ message: Type.String(), data: Type.Object({ order: OrderDto, receipt: ReceiptDto }), warnings: WriteWarnings });

export const ReliabilityResponse = Success(
  Type.Object({
    supplierId: Ulid,
    farmIds: Type.Array(Type.String(), { description: 'The farms whose receipts count (those of the supplier you can see)' }),
    currency: Type.String({
      description:
        'ISO 4217 currency the prices are averaged in: the receipts’ farms’ pricing currency when they share one, else the service’s; prices in other currencies are listed apart (`reliability.otherCurrencyPrices`)',
    }),
    receipts: Type.Integer({ description: 'Feed receipt lines counted' }),
    onTimeRatePct: FigureDto,
    fillRatePct: FigureDto,
    qualityIssueRatePct: FigureDto,
    fill: Type.Object(
      {
        orderedKg: Type.Number({ description: 'Ordered kg of the closed feed lines' }),
        receivedKg: Type.Number({ description: 'Received kg of the closed feed lines, over-delivery capped per line' }),
        lines: Type.Integer({ description: 'Closed feed lines counted in `fillRatePct`' }),
        openLines: Type.Integer({ description: 'Feed lines still being delivered, left out of `fillRatePct` (its `assumptions` or `reason` say so)' }),
      },
      {
        description:
          'The basis of `fillRatePct` = receivedKg ÷ orderedKg: the feed lines of the orders with a receipt that are closed — fully received, of a cancelled order, or past due (the order’s expected date before its farm’s today)',
      },
    ),
    score: FigureDto,
    reliability: Type.Union([SupplierReliabilityDto, Type.Null()], {
      description: 'The analytics supplier entry (same code and figures as the analytics supplier scores); null without feed receipts',
    }),
  }),
);

export const SuggestionsResponse = Success(
  Type.Object({
    farmId: Type.String(),
    asOf: Timestamp,
    coverDays: Type.Integer(),
    suggestions: Type.Array(
      Type.Object({
        feedType: Type.String(),
        stockKg: Type.Number(),
        dailyConsumptionKg: Type.Number({ description: 'Mean of the last 3 days of feed_consumption of this feed type' }),
        runOutDate: Nullable(CalendarDate),
        runOutSource: StringEnum(['forecast', 'trend'] as const),
        order: Type.Object({
          farmId: Type.String(),
          supplierId: Nullable(Type.String({ description: 'A feed supplier of the farm (most recent orders first), if any; required before POST' })),
          lines: Type.Array(
            Type.Object({
              itemKind: Type.Literal('feed'),
              feedType: Type.String(),
              quantity: Type.Number(),
              unit: Type.Literal('kg'),
              unitPrice: Type.Number(),
            }),
          ),
          currency: Type.String({ description: 'ISO 4217 currency of `unitPrice`: the last order’s of this feed, else the farm’s pricing currency' }),
          expectedDate: CalendarDate,
        }),
        reasoning: Type.Array(Type.String()),
      }),
    ),
  }),
);
