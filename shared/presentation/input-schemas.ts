import type { MovementEntry } from '../../schemas/movements.js';
import { FARM_MOVEMENT_TYPES, MOVEMENT_CATALOGUE } from '../../schemas/compiled/constants/movements.js';

/** Where a delivery is booked on the farm's stock without a cycle, and what that body adds to the type's fields. */
const FARM_BOOKING = {
  method: 'POST',
  path: '/api/v1/inventory/movements',
  extraFields: ['farmId', 'houseId'],
  description:
    'The way to book this delivery: on the farm’s stock, without a cycle (before the chicks arrive, or between cycles). The same fields, plus `farmId` (may be left out when you are assigned to one farm) and `houseId` (optional: the house bin, a house of the farm)',
};

/**
 * The "movement input schema" of the interface contract (service version 2.0.0): the form fields of
 * each movement type, derived from the same JSON Schemas that validate writes (`type` is implied by the
 * type, so it is listed in neither list).
 */
export function inputSchemaOf(entry: MovementEntry, withDescription: boolean) {
  const schema = JSON.parse(JSON.stringify(entry.schema)) as { properties: Record<string, unknown>; required?: string[] };
  const required = (schema.required ?? []).filter((f) => f !== 'type');
  const optional = Object.keys(schema.properties).filter((f) => f !== 'type' && !required.includes(f));
  return {
    type: entry.type,
    label: entry.label,
    ...(withDescription ? { description: entry.description } : {}),
    requiredFields: required,
    optionalFields: optional,
    schema,
    ...((FARM_MOVEMENT_TYPES as readonly string[]).includes(entry.type) ? { farmBooking: FARM_BOOKING } : {}),
  };
}

export function allInputSchemas() {
  return Object.fromEntries(MOVEMENT_CATALOGUE.map((e) => [e.type, inputSchemaOf(e, true)]));
}

export function findInputSchema(type: string) {
  const entry = MOVEMENT_CATALOGUE.find((e) => e.type === type);
  return entry ? inputSchemaOf(entry, false) : undefined;
}
