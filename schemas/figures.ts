import { Type } from '@sinclair/typebox';
import { CalendarDate } from './flocks.js';

/**
 * The one shape of a KPI across the API (docs/analytics.md § Figures): `{value, unit}`, or
 * `{value: null, unit, reason}`; `assumptions` names the fallbacks that stood in. Every response schema
 * that carries a KPI references `Figure` (or a Figure with a date); raw counts and measured quantities
 * stay plain numbers with the unit in the field name.
 */

export const Assumptions = Type.Array(Type.String(), { description: 'Fallbacks (analytics config) that stood in for missing inputs' });

export const figureProperties = {
  value: Type.Union([Type.Number(), Type.Null()], { description: 'The figure, rounded per its unit; null when it cannot be computed (see `reason`)' }),
  unit: Type.String({ description: 'What `value` is in: %, kg/kg, g, g/day, kg, index (dimensionless, e.g. EPEF), eggs/hen…; never empty' }),
  reason: Type.Optional(Type.String({ description: 'Why the value is null' })),
  assumptions: Type.Optional(Assumptions),
};

/** A KPI: `{value, unit}`, or `{value: null, unit, reason}`; `assumptions` when a fallback stood in. Defined once, used by every KPI. */
export const FigureDto = Type.Object(figureProperties, {
  $id: 'Figure',
  description:
    'A KPI: `{value, unit}`, or `{value: null, unit, reason}`; `assumptions` names the fallbacks that stood in. ' +
    'The convention — units, rounding, when value is null and what reason says, which fields stay plain counts — is documented once ' +
    'in the repository’s docs/analytics.md, section “Figures”.',
});

/** A Figure measured on a date (a weighing's uniformity, the latest weight). */
export const DatedFigureDto = Type.Object(
  { ...figureProperties, date: Type.Union([CalendarDate, Type.Null()]) },
  { $id: 'DatedFigure', description: 'A Figure measured on a date' },
);
