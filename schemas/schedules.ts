import { Type, type Static } from '@sinclair/typebox';
import {
  ExpectedVersion,
  ListFarmId,
  ListOf,
  pageQueryProperties,
  StringEnum,
  Success,
  Timestamp,
  Ulid,
  UlidOf,
  FarmDate,
  periodProperties,
} from './common.js';
import { CalendarDate } from './flocks.js';
import { FromStock, MEDICATION_FIELDS, MovementDto } from './movements.js';

/**
 * Schedules (`/api/v1/schedules`): recurring farm tasks whose occurrences are computed from their timing
 * (never stored ahead); only completions and skips are stored, one per schedule and farm-local date.
 */

export const SCHEDULE_KINDS = ['feeding', 'vaccination', 'medication', 'inspection', 'weighing', 'cleaning', 'other'] as const;
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];
export const OCCURRENCE_STATUSES = ['due', 'done', 'skipped', 'overdue'] as const;
export type OccurrenceStatus = (typeof OCCURRENCE_STATUSES)[number];
export const VACCINATION_METHODS = ['water', 'spray', 'eye_drop', 'injection', 'wing_web', 'other'] as const;
export const MEDICATION_ROUTES = ['water', 'feed', 'injection', 'spray', 'other'] as const;
/** The RFC 5545 subset a `{rrule}` timing takes (docs/decisions.md, "Schedules"). */
export const RRULE_PARTS = ['FREQ', 'INTERVAL', 'BYDAY', 'BYMONTHDAY', 'COUNT', 'UNTIL'] as const;

const RecordId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const Text = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description });

export const ScheduleKind = StringEnum(SCHEDULE_KINDS, { description: 'feeding, vaccination, medication, inspection, weighing, cleaning or other' });

export const ScheduleDetails = Type.Object(
  {
    vaccine: Type.Optional(Text(120, 'Vaccine (vaccination: required)')),
    method: Type.Optional(StringEnum(VACCINATION_METHODS, { description: 'How the vaccine is given (vaccination: required)' })),
    dose: Type.Optional(Text(120, 'Dose (vaccination and medication: required)')),
    feedType: Type.Optional(Text(60, 'Feed type (feeding: required)')),
    amountKg: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10_000_000, description: 'Amount of feed, kg (feeding: required)' })),
    product: Type.Optional(Text(120, 'Product (medication: required)')),
    route: Type.Optional(StringEnum(MEDICATION_ROUTES, { description: 'How the medication is given' })),
    withdrawalDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 365, description: 'Withdrawal period of the medication, days' })),
    instructions: Type.Optional(Text(2000, 'What to do, in words')),
  },
  {
    additionalProperties: false,
    description:
      'Depends on `kind`: vaccination takes vaccine, method and dose; feeding takes feedType and amountKg; medication takes product and dose (route, withdrawalDays); every kind may carry instructions. A field of another kind is refused (400 naming it).',
  },
);
export type ScheduleDetails = Static<typeof ScheduleDetails>;

const OnceTiming = Type.Object(
  { once: FarmDate('The farm-local date') },
  { additionalProperties: false, title: 'Once', description: 'A single farm-local date' },
);
const EveryTiming = Type.Object(
  {
    every: Type.Integer({ minimum: 1, maximum: 365, description: 'Every n units' }),
    unit: StringEnum(['day', 'week'] as const),
    from: Type.String({ format: 'date', description: 'The first farm-local date (at most 1,096 days before today)' }),
    until: Type.Optional(FarmDate('The last farm-local date', 1100)),
  },
  { additionalProperties: false, title: 'Every', description: 'Every n days or weeks from `from` (inclusive) until `until` (inclusive, optional)' },
);
const RruleTiming = Type.Object(
  {
    rrule: Type.String({
      minLength: 6,
      maxLength: 300,
      pattern: '^[A-Z0-9=;,+-]+$',
      description:
        'An RFC 5545 RRULE value in the supported subset: FREQ (DAILY, WEEKLY or MONTHLY), INTERVAL, BYDAY (MO…SU), BYMONTHDAY (1…31 or -31…-1), COUNT and UNTIL (YYYYMMDD), e.g. `FREQ=WEEKLY;BYDAY=MO,TH`',
      examples: ['FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,TH'],
    }),
    from: Type.String({ format: 'date', description: 'The first farm-local date (DTSTART; at most 1,096 days before today)' }),
  },
  { additionalProperties: false, title: 'Rrule', description: 'A recurrence rule whose DTSTART is the farm-local date `from`' },
);
const AgeTiming = Type.Object(
  {
    ageDays: Type.Array(Type.Integer({ minimum: 0, maximum: 1000 }), {
      minItems: 1,
      maxItems: 100,
      uniqueItems: true,
      description: 'Ages in days; age 0 is the cycle’s placement (start) date. Needs `cycleId`',
    }),
  },
  { additionalProperties: false, title: 'AgeDays', description: 'Days of age, relative to the cycle’s placement' },
);
export const ScheduleTiming = Type.Union([OnceTiming, EveryTiming, RruleTiming, AgeTiming], {
  description: 'One of `{once}`, `{every, unit, from, until?}`, `{rrule, from}` or `{ageDays}` (dates are farm-local calendar dates)',
});
export type ScheduleTiming = Static<typeof ScheduleTiming>;

export const scheduleParams = Type.Object({ scheduleId: UlidOf('Id of the schedule') }, { additionalProperties: false, $id: 'ScheduleParams' });
export type ScheduleParams = Static<typeof scheduleParams>;
export const occurrenceParams = Type.Object(
  {
    scheduleId: UlidOf('Id of the schedule'),
    date: Type.String({ format: 'date', description: 'The occurrence’s farm-local date, YYYY-MM-DD', examples: ['2026-03-14'] }),
  },
  { additionalProperties: false, $id: 'OccurrenceParams' },
);
export type OccurrenceParams = Static<typeof occurrenceParams>;
export const programmeParams = Type.Object(
  { programmeId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9-]+$', description: 'Id of the programme', examples: ['broiler-typical'] }) },
  { additionalProperties: false, $id: 'ProgrammeParams' },
);
export type ProgrammeParams = Static<typeof programmeParams>;

const placement = {
  houseId: Type.Optional(Type.Union([RecordId, Type.Null()], { description: 'A house of the farm' })),
  flockId: Type.Optional(Type.Union([UlidOf('A flock of the farm'), Type.Null()], { description: 'A flock of the farm (required with cycleId)' })),
  cycleId: Type.Optional(Type.Union([UlidOf('A cycle of the flock'), Type.Null()], { description: 'A cycle of the flock (required by `ageDays`)' })),
  assignee: Type.Optional(Type.Union([RecordId, Type.Null()], { description: 'The user who does it (a user of the farm)' })),
};

export const createScheduleBody = Type.Object(
  {
    farmId: Type.Optional(Type.String({ ...RecordId, description: 'The farm; may be left out when you are assigned to one farm' })),
    ...placement,
    kind: ScheduleKind,
    title: Text(200, 'What, in a line'),
    details: Type.Optional(ScheduleDetails),
    timing: ScheduleTiming,
  },
  { additionalProperties: false, $id: 'CreateScheduleBody' },
);
export type CreateScheduleBody = Static<typeof createScheduleBody>;

export const updateScheduleBody = Type.Object(
  {
    ...placement,
    title: Type.Optional(Text(200, 'What, in a line')),
    details: Type.Optional(ScheduleDetails),
    timing: Type.Optional(ScheduleTiming),
    version: Type.Optional(ExpectedVersion),
  },
  { additionalProperties: false, minProperties: 1, $id: 'UpdateScheduleBody' },
);
export type UpdateScheduleBody = Static<typeof updateScheduleBody>;

export const listSchedulesQuery = Type.Object(
  {
    farmId: ListFarmId('`flockId`, `cycleId` or `houseId`'),
    kind: Type.Optional(ScheduleKind),
    houseId: Type.Optional(Type.String({ ...RecordId, description: 'Only the schedules of this house' })),
    flockId: Type.Optional(UlidOf('Only the schedules of this flock')),
    cycleId: Type.Optional(UlidOf('Only the schedules of this cycle')),
    assignee: Type.Optional(Type.String({ ...RecordId, description: 'Only the schedules assigned to this user' })),
    ...pageQueryProperties,
  },
  { additionalProperties: false, $id: 'ListSchedulesQuery' },
);
export type ListSchedulesQuery = Static<typeof listSchedulesQuery>;

export const agendaQuery = Type.Object(
  {
    farmId: Type.Optional(Type.String({ ...RecordId, description: 'The farm (required when you see more than one)' })),
    ...periodProperties,
  },
  { additionalProperties: false, $id: 'AgendaQuery' },
);
export type AgendaQuery = Static<typeof agendaQuery>;

export const CompletionData = Type.Object(
  {
    vaccine: Type.Optional(Text(120, 'Vaccine given, when it differs from the schedule’s')),
    method: Type.Optional(StringEnum(VACCINATION_METHODS)),
    dose: Type.Optional(Text(120, 'Dose given, when it differs from the schedule’s')),
    batchNumber: Type.Optional(Text(64, 'Batch of the vaccine or of the medicinal product')),
    product: Type.Optional(Text(120, 'Product given, when it differs from the schedule’s')),
    route: Type.Optional(StringEnum(MEDICATION_ROUTES)),
    withdrawalDays: MEDICATION_FIELDS.withdrawalDays,
    prescribedBy: Type.Optional(Text(120, 'Veterinarian')),
    fromStock: Type.Optional(FromStock),
    // a medication's Reg. (EU) 2019/6 Art. 108 fields, as the movement catalogue defines them
    treatmentDays: MEDICATION_FIELDS.treatmentDays,
    quantityAdministered: MEDICATION_FIELDS.quantityAdministered,
    supplier: MEDICATION_FIELDS.supplier,
    purchaseReference: MEDICATION_FIELDS.purchaseReference,
    prescriptionReference: MEDICATION_FIELDS.prescriptionReference,
    animalsTreated: MEDICATION_FIELDS.animalsTreated,
    weighingId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'The weighing session this weighing occurrence was done by' }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'What was actually done: a vaccination’s or medication’s fields override the schedule’s details in the movement written; a medication also takes the ' +
      'Reg. (EU) 2019/6 Art. 108 fields of the medication movement (treatmentDays, quantityAdministered, supplier, purchaseReference, prescriptionReference, ' +
      'batchNumber, animalsTreated); a weighing occurrence links its weighing. A field of another kind is refused (400 naming it)',
  },
);
export const completeOccurrenceBody = Type.Object(
  {
    notes: Type.Optional(Text(2000, 'Notes')),
    data: Type.Optional(CompletionData),
    doneOn: Type.Optional(
      FarmDate(
        'The farm-local day the task was actually done (default: the farm’s today). Not after the farm’s today, not before the start of the schedule’s cycle. ' +
          'Adherence is judged on it, the vaccination or medication movement is dated on it, and a day before today is audited as back-filled',
      ),
    ),
  },
  { additionalProperties: false, $id: 'CompleteOccurrenceBody' },
);
export type CompleteOccurrenceBody = Static<typeof completeOccurrenceBody>;
export const skipOccurrenceBody = Type.Object({ reason: Text(500, 'Why it was not done') }, { additionalProperties: false, $id: 'SkipOccurrenceBody' });
export type SkipOccurrenceBody = Static<typeof skipOccurrenceBody>;

export const applyProgrammeBody = Type.Object(
  {
    flockId: UlidOf('The flock of the cycle'),
    cycleId: UlidOf('The cycle the programme is for (its placement date is age 0)'),
    houseId: Type.Optional(RecordId),
    assignee: Type.Optional(RecordId),
  },
  { additionalProperties: false, $id: 'ApplyProgrammeBody' },
);
export type ApplyProgrammeBody = Static<typeof applyProgrammeBody>;

// ---------------------------------------------------------------------------------------------------
// Responses

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
export const ScheduleDto = Type.Object(
  {
    id: Ulid,
    farmId: Type.String(),
    houseId: Nullable(Type.String()),
    flockId: Nullable(Type.String()),
    cycleId: Nullable(Type.String()),
    kind: ScheduleKind,
    title: Type.String(),
    details: ScheduleDetails,
    timing: ScheduleTiming,
    assignee: Nullable(Type.String()),
    programme: Type.Union([Type.Object({ id: Type.String(), step: Type.String() }), Type.Null()], {
      description: 'The programme template it was applied from, if any (the schedule is the farm’s own to edit)',
    }),
    createdBy: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    version: Type.Integer(),
  },
  { $id: 'Schedule' },
);
export const ScheduleResponse = Success(ScheduleDto);
export const ScheduleListResponse = ListOf(ScheduleDto);

export const OccurrenceDto = Type.Object(
  {
    scheduleId: Ulid,
    date: CalendarDate,
    kind: ScheduleKind,
    title: Type.String(),
    status: StringEnum(OCCURRENCE_STATUSES, {
      description: 'due (today or later), overdue (before the farm’s today, neither done nor skipped), done or skipped',
    }),
    farmId: Type.String(),
    houseId: Nullable(Type.String()),
    flockId: Nullable(Type.String()),
    cycleId: Nullable(Type.String()),
    assignee: Nullable(Type.String()),
    outcome: Type.Union(
      [
        Type.Object({
          status: StringEnum(['done', 'skipped'] as const),
          at: Timestamp,
          by: Type.String(),
          notes: Nullable(Type.String()),
          reason: Nullable(Type.String()),
          movementId: Nullable(Type.String()),
          weighingId: Nullable(Type.String()),
          doneOn: Type.Union([CalendarDate, Type.Null()], {
            description: 'A completion: the farm-local day the task was done (`doneOn` of the completion, else the day it was recorded); null for a skip',
          }),
        }),
        Type.Null(),
      ],
      { description: 'The stored completion or skip' },
    ),
  },
  { $id: 'Occurrence' },
);
export const CompletedOccurrenceResponse = Success(
  Type.Composite([
    OccurrenceDto,
    Type.Object({ movement: Type.Union([MovementDto, Type.Null()], { description: 'The vaccination or medication movement the completion wrote' }) }),
  ]),
);
export const AgendaResponse = Success(
  Type.Object({
    farmId: Type.String(),
    timezone: Type.String({ description: 'The farm’s IANA time zone' }),
    today: CalendarDate,
    from: CalendarDate,
    to: CalendarDate,
    occurrences: Type.Array(OccurrenceDto, { description: 'By date, then schedule' }),
    overdue: Type.Array(OccurrenceDto, {
      description: 'Occurrences before `from` (up to 92 days back) neither done nor skipped, oldest first',
    }),
  }),
);

export const ProgrammeDto = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    birdType: StringEnum(['broiler', 'layer', 'breeder'] as const),
    description: Type.String(),
    sources: Type.Array(Type.Object({ title: Type.String(), url: Type.String() })),
    steps: Type.Array(
      Type.Object({
        id: Type.String(),
        kind: ScheduleKind,
        title: Type.String(),
        details: ScheduleDetails,
        ageDays: Type.Array(Type.Integer()),
      }),
    ),
  },
  { $id: 'SchedulingProgramme' },
);
export const ProgrammeListResponse = Success(Type.Array(ProgrammeDto));
export const AppliedProgrammeResponse = Success(Type.Object({ programmeId: Type.String(), cycleId: Type.String(), schedules: Type.Array(ScheduleDto) }));
