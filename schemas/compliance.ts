import { Type, type Static } from '@sinclair/typebox';
import { JsonValue, ListFarmId, ListOf, pageQueryProperties, StringEnum, Success, Timestamp, Ulid, UlidOf, FarmDate } from './common.js';
import { CalendarDate } from './flocks.js';

/**
 * Compliance (`/api/v1/compliance`): withdrawal periods of medications, Salmonella sampling, the cycle's
 * compliance report (JSON or CSV) and a farm's status. The rules and their public sources:
 * docs/domain.md, "Compliance".
 */
const RecordId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const Text = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

// ---------------------------------------------------------------------------------------------------
// Withdrawal periods

export const listWithdrawalsQuery = Type.Object(
  {
    farmId: ListFarmId('`flockId`'),
    active: Type.Optional(Type.Boolean({ description: 'true: only the windows whose last restricted day is today or later (default: all)' })),
    flockId: Type.Optional(UlidOf('Only this flock’s windows')),
    ...pageQueryProperties,
  },
  { additionalProperties: false, $id: 'ListWithdrawalsQuery' },
);
export type ListWithdrawalsQuery = Static<typeof listWithdrawalsQuery>;

export const WithdrawalWindowDto = Type.Object(
  {
    movementId: Type.String({ description: 'The medication movement that opened the window' }),
    farmId: Type.String(),
    flockId: Type.String(),
    cycleId: Type.String(),
    product: Type.Union([Type.String(), Type.Null()]),
    treatmentStart: CalendarDate,
    treatmentEnd: CalendarDate,
    treatmentDays: Type.Integer(),
    withdrawalDays: Type.Integer({ description: 'The meat withdrawal, days' }),
    eggWithdrawalDays: Type.Integer({ description: 'The egg withdrawal, days (the meat period when the medication gave none)' }),
    meatEndsOn: Type.Union([CalendarDate, Type.Null()], { description: 'The last day the cycle’s birds may not be sold (null: no meat withdrawal)' }),
    eggEndsOn: Type.Union([CalendarDate, Type.Null()], {
      description: 'The last laying day whose eggs may not be sold, whenever they are sold (null: no egg withdrawal)',
    }),
    endsOn: Type.String({ format: 'date', description: 'The last restricted day, for birds or eggs: the later of meatEndsOn and eggEndsOn' }),
    active: Type.Boolean({ description: 'endsOn is today or later' }),
    daysLeft: Type.Integer({ description: 'Restricted days left, today included (0 once it ended)' }),
  },
  { $id: 'WithdrawalWindow' },
);
export const WithdrawalListResponse = ListOf(WithdrawalWindowDto);

// ---------------------------------------------------------------------------------------------------
// Salmonella sampling

export const SAMPLE_KINDS = ['boot_swabs', 'dust', 'faeces', 'official', 'other'] as const;
export const SAMPLE_RESULTS = ['pending', 'negative', 'positive'] as const;

export const createSampleBody = Type.Object(
  {
    flockId: UlidOf('The flock sampled'),
    cycleId: Type.Optional(UlidOf('Its cycle (default: the flock’s active cycle)')),
    date: FarmDate('The day the sample was taken'),
    kind: StringEnum(SAMPLE_KINDS, { description: 'boot_swabs, dust, faeces (operator sampling), official (by the competent authority), other' }),
    laboratory: Type.Optional(Text(200, 'The laboratory that analyses it')),
    result: Type.Optional(StringEnum(SAMPLE_RESULTS, { description: 'pending (default), negative or positive for Salmonella' })),
    notes: Type.Optional(Text(2000, 'Free text')),
  },
  { additionalProperties: false, $id: 'CreateSampleBody' },
);
export type CreateSampleBody = Static<typeof createSampleBody>;

export const listSamplesQuery = Type.Object(
  { farmId: ListFarmId('`flockId`'), flockId: Type.Optional(UlidOf('Only this flock’s samples')), ...pageQueryProperties },
  { additionalProperties: false, $id: 'ListSamplesQuery' },
);
export type ListSamplesQuery = Static<typeof listSamplesQuery>;

export const SampleDto = Type.Object(
  {
    id: Ulid,
    farmId: Type.String(),
    flockId: Type.String(),
    cycleId: Type.Union([Type.String(), Type.Null()]),
    date: CalendarDate,
    kind: StringEnum(SAMPLE_KINDS),
    laboratory: Nullable(Type.String()),
    result: StringEnum(SAMPLE_RESULTS),
    notes: Nullable(Type.String()),
    createdAt: Timestamp,
    createdBy: Type.String(),
    version: Type.Integer(),
  },
  { $id: 'SalmonellaSample' },
);
export const SampleResponse = Success(SampleDto);
export const SampleListResponse = ListOf(SampleDto);

// ---------------------------------------------------------------------------------------------------
// Report and status

export const RULE_STATUSES = ['pass', 'warn', 'fail'] as const;
const RuleStatus = StringEnum(RULE_STATUSES, { description: 'pass, warn (to look at) or fail (a breach)' });

export const complianceReportParams = Type.Object(
  { flockId: UlidOf('Id of the flock'), cycleId: UlidOf('Id of the cycle') },
  { additionalProperties: false, $id: 'ComplianceReportParams' },
);
export type ComplianceReportParams = Static<typeof complianceReportParams>;

export const complianceFarmParams = Type.Object(
  { farmId: Type.String({ ...RecordId, description: 'Id of the farm' }) },
  { additionalProperties: false, $id: 'ComplianceFarmParams' },
);
export type ComplianceFarmParams = Static<typeof complianceFarmParams>;

const FindingDto = Type.Object({
  status: RuleStatus,
  message: Type.String(),
  date: Type.Union([CalendarDate, Type.Null()], { description: 'The day it concerns, when one' }),
  evidence: JsonValue,
});
export const RuleResultDto = Type.Object(
  {
    rule: Type.String({ description: 'Rule id, e.g. withdrawal_sales' }),
    title: Type.String(),
    source: Type.String({ description: 'The public source of the rule (regulation, directive)' }),
    status: RuleStatus,
    summary: Type.String(),
    findings: Type.Array(FindingDto),
  },
  { $id: 'ComplianceRuleResult' },
);
export const ComplianceReportDto = Type.Object(
  {
    farmId: Type.String(),
    flockId: Type.String(),
    cycleId: Type.String(),
    birdType: Type.String(),
    from: CalendarDate,
    to: CalendarDate,
    asOf: CalendarDate,
    status: RuleStatus,
    rules: Type.Array(RuleResultDto),
  },
  { $id: 'ComplianceReport' },
);
export const ComplianceReportResponse = Success(ComplianceReportDto);

export const FarmComplianceStatusDto = Type.Object(
  {
    farmId: Type.String(),
    asOf: CalendarDate,
    status: RuleStatus,
    counts: Type.Object({ pass: Type.Integer(), warn: Type.Integer(), fail: Type.Integer() }, { description: 'Rule results over the active cycles' }),
    cycles: Type.Array(
      Type.Object({
        flockId: Type.String(),
        cycleId: Type.String(),
        status: RuleStatus,
        rules: Type.Array(Type.Object({ rule: Type.String(), status: RuleStatus, summary: Type.String() })),
      }),
    ),
  },
  { $id: 'FarmComplianceStatus' },
);
export const FarmComplianceStatusResponse = Success(FarmComplianceStatusDto);
