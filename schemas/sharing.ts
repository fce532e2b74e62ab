import { Type, type Static } from '@sinclair/typebox';
import { ExpectedVersion, FarmDate, ListOf, pageQueryProperties, StringEnum, Success, Timestamp, Ulid, UlidOf } from './common.js';
import { GRADE_PATTERN } from './movement-fields.js';
import { WriteWarnings } from './warnings.js';

/**
 * Sharing (`/api/v1/sharing`): transfers of birds, feed, eggs and equipment between farms, requested by
 * the sending farm, approved by the receiving farm and completed in one transaction on both sides.
 */
export const TRANSFER_KINDS = ['birds', 'feed', 'eggs', 'equipment'] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];
export const TRANSFER_STATUSES = ['requested', 'approved', 'completed', 'rejected', 'cancelled'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];
export const TRANSFER_ACTIONS = ['approve', 'reject', 'cancel', 'complete'] as const;
export type TransferAction = (typeof TRANSFER_ACTIONS)[number];

const RecordId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const Text = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description });
export const TransferKindSchema = StringEnum(TRANSFER_KINDS, { description: 'birds, feed (kg of one feed type), eggs or equipment' });
export const TransferStatusSchema = StringEnum(TRANSFER_STATUSES, {
  description: 'requested → approved → completed; requested → rejected; requested or approved → cancelled',
});

/** The sending farm's end: its own flock and cycle (a flock or cycle of another farm is a missing one: 404). */
const FromEnd = Type.Object(
  {
    farmId: Type.String({ ...RecordId, description: 'The sending farm (one of yours)' }),
    flockId: Type.Optional(UlidOf('The sending flock (required for birds, feed and eggs: its cycle records the movement)')),
    cycleId: Type.Optional(UlidOf('The sending flock’s cycle (default: its active cycle), active')),
  },
  { additionalProperties: false },
);

/**
 * The receiving farm's end: only the farm, and maybe a flock proposed there. Neither is looked up at request
 * (the answer is the same for a real and a made-up one); the receiving farm picks its flock and cycle when it approves.
 */
const ToEnd = Type.Object(
  {
    farmId: Type.String({ ...RecordId, description: 'The receiving farm (not looked up: a request to a made-up farm stays requested until cancelled)' }),
    flockId: Type.Optional(
      UlidOf('A flock of the receiving farm the sender proposes, kept as given (not looked up): the approver confirms it or picks another'),
    ),
  },
  { additionalProperties: false },
);

const EquipmentItem = Type.Object(
  {
    equipmentId: Type.Optional(UlidOf('A registered piece of shared equipment held by the sending farm')),
    name: Type.Optional(Text(120, 'A piece not yet registered: its name (registered on completion)')),
    serial: Type.Optional(Text(64, 'Its serial number')),
  },
  { additionalProperties: false },
);

export const createTransferBody = Type.Object(
  {
    kind: TransferKindSchema,
    from: FromEnd,
    to: ToEnd,
    quantity: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 10_000_000, description: 'Birds or eggs (whole numbers) or kg of feed; not for equipment' }),
    ),
    feedType: Type.Optional(Text(60, 'The feed type (feed transfers only)')),
    grade: Type.Optional(
      Type.String({
        pattern: GRADE_PATTERN,
        description:
          'Eggs only: the grade or size sent (S, M, L, XL…; 1–20 letters, digits, _ or -). The sending cycle’s lots give eggs of that grade (oldest laying day first) and the receiving cycle’s lots get them as that grade, keeping their laying days. Without it, ungraded eggs',
      }),
    ),
    unitCost: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 100_000_000,
        description:
          'Birds only: the cost per bird the birds carry to the receiving cycle (its pullet cost; the sending cycle passes it on as a transfer out at cost). The sending cycle’s financials answer its cost so far per bird alive (costPerBirdAlive). Without it the birds move without a cost',
      }),
    ),
    items: Type.Optional(Type.Array(EquipmentItem, { minItems: 1, maxItems: 20, description: 'The pieces of equipment (equipment transfers only)' })),
    notes: Type.Optional(Text(2000, 'Free text')),
    date: Type.Optional(
      FarmDate(
        'The day the transfer took place (a past one, recorded late): both movements are dated on it when the transfer is completed, ' +
          'and it must fall within both cycles then (409). Not in the future (400). Default: the day of the completion',
      ),
    ),
  },
  { additionalProperties: false, $id: 'CreateTransferBody' },
);
export type CreateTransferBody = Static<typeof createTransferBody>;

export const transferParams = Type.Object({ transferId: UlidOf('Id of the transfer') }, { additionalProperties: false, $id: 'TransferParams' });
export type TransferParams = Static<typeof transferParams>;

export const transferActionBody = Type.Object(
  { note: Type.Optional(Text(2000, 'Why (kept on the transfer)')), version: Type.Optional(ExpectedVersion) },
  { additionalProperties: false, $id: 'TransferActionBody' },
);
export type TransferActionBody = Static<typeof transferActionBody>;

/** Approval: the receiving farm chooses where birds, feed or eggs go (its flock and cycle), as the step's note and version. */
export const approveTransferBody = Type.Object(
  {
    ...transferActionBody.properties,
    flockId: Type.Optional(
      UlidOf(
        'Birds, feed and eggs: the flock of your farm whose cycle records the movement (default: the flock the sender proposed, when it is one of yours); another farm’s flock answers 404',
      ),
    ),
    cycleId: Type.Optional(UlidOf('Its cycle, active (default: the flock’s active cycle)')),
  },
  { additionalProperties: false, $id: 'ApproveTransferBody' },
);
export type ApproveTransferBody = Static<typeof approveTransferBody>;

export const listTransfersQuery = Type.Object(
  {
    farmId: Type.Optional(Type.String({ ...RecordId, description: 'The farm (required when you see more than one)' })),
    direction: Type.Optional(
      StringEnum(['both', 'incoming', 'outgoing'] as const, {
        description: 'both (default): every transfer of the farm, sent or received, newest first; incoming: those it receives; outgoing: those it sends',
        default: 'both',
      }),
    ),
    status: Type.Optional(TransferStatusSchema),
    ...pageQueryProperties,
  },
  { additionalProperties: false, $id: 'ListTransfersQuery' },
);
export type ListTransfersQuery = Static<typeof listTransfersQuery>;

export const listEquipmentQuery = Type.Object(
  {
    farmId: Type.Optional(Type.String({ ...RecordId, description: 'The farm (required when you see more than one)' })),
    side: Type.Optional(
      StringEnum(['held', 'owned'] as const, { description: 'The pieces the farm holds now (default), or those it owns wherever they are', default: 'held' }),
    ),
    ...pageQueryProperties,
  },
  { additionalProperties: false, $id: 'ListEquipmentQuery' },
);
export type ListEquipmentQuery = Static<typeof listEquipmentQuery>;

// ---------------------------------------------------------------------------------------------------
// Responses

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T, description: string) => Type.Union([t, Type.Null()], { description });
const EndDto = Type.Object({
  farmId: Type.String(),
  flockId: Type.Union([Ulid, Type.Null()]),
  cycleId: Type.Union([Ulid, Type.Null()]),
  movementId: Type.Union([Ulid, Type.Null()], { description: 'The movement the completion wrote in this cycle (birds, feed, eggs)' }),
});
/** The receiving end: the flock the sender proposed until approval, then the one the approver chose, with its cycle. */
const ToEndDto = Type.Object({
  farmId: Type.String(),
  flockId: Type.Union([Ulid, Type.Null()], {
    description: 'Until approved: the flock the sender proposed (as given, not looked up); then the flock the approver chose',
  }),
  cycleId: Type.Union([Ulid, Type.Null()], { description: 'Null until approved: the cycle the approver chose (birds, feed, eggs)' }),
  movementId: Type.Union([Ulid, Type.Null()], { description: 'The movement the completion wrote in this cycle (birds, feed, eggs)' }),
});
const StepDto = Type.Object({ at: Timestamp, by: Type.String(), note: Type.Union([Type.String(), Type.Null()]) });
export const TransferDto = Type.Object(
  {
    id: Ulid,
    kind: TransferKindSchema,
    status: TransferStatusSchema,
    from: EndDto,
    to: ToEndDto,
    quantity: Type.Union([Type.Number(), Type.Null()]),
    feedType: Type.Union([Type.String(), Type.Null()]),
    grade: Type.Optional(Type.String({ description: 'Eggs: the grade sent (absent: ungraded eggs)' })),
    unitCost: Type.Optional(Type.Number({ description: 'Birds: the cost per bird they carry to the receiving cycle (absent: none)' })),
    items: Type.Union(
      [
        Type.Array(
          Type.Object({
            equipmentId: Ulid,
            name: Type.String(),
            serial: Type.Union([Type.String(), Type.Null()]),
          }),
        ),
        Type.Null(),
      ],
      { description: 'Equipment: each piece with its register id (a new piece gets its id when requested and is registered on completion)' },
    ),
    notes: Type.Union([Type.String(), Type.Null()]),
    requestedBy: Type.String(),
    approved: Type.Union([StepDto, Type.Null()]),
    rejected: Type.Union([StepDto, Type.Null()]),
    cancelled: Type.Union([StepDto, Type.Null()]),
    completed: Type.Union([StepDto, Type.Null()]),
    completedDate: Nullable(Type.String({ format: 'date' }), 'The date of the movements the completion wrote'),
    date: Nullable(
      Type.String({ format: 'date' }),
      'The transfer’s own day, named at request: its movements are dated on it (null: on the day of the completion)',
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    version: Type.Integer(),
  },
  { $id: 'Transfer' },
);
export const TransferResponse = Success(TransferDto);
/** A completed transfer, and its warnings when the birds would put the receiving house above the stocking density limit. */
export const TransferCompletedResponse = Type.Object({ message: Type.String(), data: TransferDto, warnings: WriteWarnings });
export const TransferListResponse = ListOf(TransferDto);

export const EquipmentDto = Type.Object(
  {
    id: Ulid,
    name: Type.String(),
    serial: Type.Union([Type.String(), Type.Null()]),
    ownerFarmId: Type.String({ description: 'The farm that first sent it (registered it)' }),
    holderFarmId: Type.String({ description: 'The farm that holds it now' }),
    lentOut: Type.Boolean({ description: 'Held by another farm than its owner' }),
    updatedAt: Timestamp,
  },
  { $id: 'Equipment' },
);
export const EquipmentListResponse = ListOf(EquipmentDto);
