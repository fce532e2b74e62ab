/**
 * Validators of the movement types that services write on the caller's behalf: a receipt's feed delivery,
 * chick placement and medicine delivery (procurement), a completed vaccination or medication (schedules). Each is the
 * catalogue's own schema of that type (schemas/movements.ts), compiled alone: a few KB, where the
 * whole catalogue's discriminated union is ~130 KB of every bundle that imports it.
 */
import { MOVEMENT_CATALOGUE, type MovementType } from './movements.js';

const schemaOf = <T extends MovementType>(type: T) => {
  const entry = MOVEMENT_CATALOGUE.find((m): m is Extract<(typeof MOVEMENT_CATALOGUE)[number], { type: T }> => m.type === type);
  if (!entry) throw new Error(`no movement type ${type} in the catalogue`);
  return entry.schema;
};

export const feedDeliveryMovementBody = schemaOf('feed_delivery');
export const birdInflowMovementBody = schemaOf('bird_inflow');
export const medicineDeliveryMovementBody = schemaOf('medicine_delivery');
export const vaccinationMovementBody = schemaOf('vaccination');
export const medicationMovementBody = schemaOf('medication');
