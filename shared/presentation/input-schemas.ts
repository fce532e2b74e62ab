import { MOVEMENT_CATALOGUE, type MovementEntry } from '../../schemas/movements.js';

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
  };
}

export function allInputSchemas() {
  return Object.fromEntries(MOVEMENT_CATALOGUE.map((e) => [e.type, inputSchemaOf(e, true)]));
}

export function findInputSchema(type: string) {
  const entry = MOVEMENT_CATALOGUE.find((e) => e.type === type);
  return entry ? inputSchemaOf(entry, false) : undefined;
}
