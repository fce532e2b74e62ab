import { Type, type TProperties } from '@sinclair/typebox';
import { FarmDate } from './common.js';

/** The field schemas the movement catalogue (schemas/movements.ts) builds its types from. */
export const Count = (description: string) => Type.Integer({ minimum: 1, maximum: 10_000_000, description });
export const Kg = (description: string) => Type.Number({ exclusiveMinimum: 0, maximum: 10_000_000, description });
export const Money = (description: string) => Type.Number({ minimum: 0, maximum: 100_000_000, description });
export const Text = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, description });
export const Notes = Type.Optional(Text(2000, 'Free text'));

/** One type of the catalogue: its schema is the type, the date, its own fields and the notes. */
export function movement<T extends string, P extends TProperties>(type: T, label: string, description: string, props: P) {
  return {
    type,
    label,
    description,
    schema: Type.Object(
      { type: Type.Literal(type), date: FarmDate('The day of the movement'), ...props, notes: Notes },
      { additionalProperties: false, title: label, description },
    ),
  };
}
/**
 * A sale dated inside a medication's withdrawal period is refused (409) unless it carries an override: it
 * needs manage_compliance (else 403) and is audited with who, why and which withdrawal windows.
 */
export const WithdrawalOverride = Type.Optional(
  Type.Object(
    { reason: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S', description: 'Why the sale goes ahead during the withdrawal period' }) },
    { additionalProperties: false, description: 'Sell during a withdrawal period anyway (requires manage_compliance; audited)' },
  ),
);

/**
 * The laying days a sale, loss or transfer out takes its eggs from (the cycle's egg lots: one per laying
 * day). Without it the oldest eggs on hand go first; either way the movement records the lots it drew.
 */
export const FromLots = Type.Optional(
  Type.Array(
    Type.Object(
      {
        laidOn: FarmDate('The day the eggs were laid (a lot of this cycle)'),
        quantity: Count('Eggs taken from that lot'),
      },
      { additionalProperties: false },
    ),
    {
      minItems: 1,
      maxItems: 60,
      description:
        'The laying days the eggs come from, each with its quantity (adding up to `quantity`); default: the oldest eggs on hand laid on or before the movement’s date. Recorded on the movement either way: the withdrawal check and the compliance report judge these laying days',
    },
  ),
);

/** A grade or size of eggs, as the farm names them (EU weight grades S, M, L, XL, or its own). */
export const GRADE_PATTERN = '^[A-Za-z0-9_-]{1,20}$';
export const Grade = Type.Optional(
  Type.String({
    pattern: GRADE_PATTERN,
    description:
      'The grade or size taken (S, M, L, XL…; 1–20 letters, digits, _ or -): taken from the lots’ eggs of that grade. Without it, from their ungraded eggs',
  }),
);
/** The grade of eggs received by a transfer: the receiving cycle's lots get them as that grade (absent: ungraded). */
export const ReceivedGrade = Type.Optional(
  Type.String({
    pattern: GRADE_PATTERN,
    description: 'The grade or size received (as sent): added to the lots of their laying days as eggs of that grade. Without it, ungraded eggs',
  }),
);
