/**
 * One movement shape for reading and writing: the answer of each type is flat (its metadata, the type's
 * fields as the catalogue declares them, the fields the service sets), so a client can send back what it read.
 */
import { describe, expect, it } from 'vitest';
import { MOVEMENT_CATALOGUE, MOVEMENT_METADATA, MovementDto, READ_ONLY_MOVEMENT_FIELDS, SERVICE_FIELDS } from '../../schemas/movements.js';

interface ObjectSchema {
  $id: string;
  properties: Record<string, { const?: string }>;
  required?: string[];
}
const members = (MovementDto as unknown as { oneOf: ObjectSchema[] }).oneOf;

describe('the movement shape', () => {
  it('no field of the catalogue or of the service uses a name of the metadata (only type and date are shared, on purpose)', () => {
    for (const entry of MOVEMENT_CATALOGUE) {
      const own = Object.keys(entry.schema.properties).filter((k) => k !== 'type' && k !== 'date');
      expect(
        own.filter((k) => MOVEMENT_METADATA.includes(k)),
        entry.type,
      ).toEqual([]);
    }
    expect(SERVICE_FIELDS.filter((k) => MOVEMENT_METADATA.includes(k))).toEqual([]);
    expect(READ_ONLY_MOVEMENT_FIELDS).toEqual(['id', 'flockId', 'cycleId', 'farmId', 'lock', 'createdAt', 'createdBy', 'updatedAt']);
  });

  it('answers each type flat: metadata, the type’s fields (required as the catalogue says) and the service’s fields, told apart by type', () => {
    expect(members.map((m) => m.properties.type?.const)).toEqual(MOVEMENT_CATALOGUE.map((e) => e.type));
    for (const [i, entry] of MOVEMENT_CATALOGUE.entries()) {
      const member = members[i]!;
      const written = Object.keys(entry.schema.properties);
      expect(Object.keys(member.properties).sort(), entry.type).toEqual([...new Set([...MOVEMENT_METADATA, ...written, ...SERVICE_FIELDS])].sort());
      expect(member.properties.fields, entry.type).toBeUndefined();
      const required = (entry.schema as unknown as { required: string[] }).required;
      const metadata = MOVEMENT_METADATA.filter((k) => k !== 'type' && k !== 'date');
      expect([...(member.required ?? [])].sort(), entry.type).toEqual([...new Set([...required, ...metadata])].sort());
    }
  });
});
