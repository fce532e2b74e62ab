import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { NotFound } from '../../shared/errors.js';
import { findInputSchema } from '../../shared/presentation/input-schemas.js';
import { MOVEMENT_TYPES } from '../../schemas/compiled/constants/movements.js';
import { movementTypeParams } from '../../schemas/compiled/movements.js';

export const handler = httpHandler(
  {
    capability: 'none',
    summary: 'One movement type’s form: {type, label, requiredFields, optionalFields, schema}',
    description: 'Any signed-in user. The form of one movement type, as in the list of every type; an unknown type answers 404.',
    params: movementTypeParams,
    responses: { 200: { description: 'The input schema', schema: 'InputSchemaResponse' }, 404: { description: 'Unknown movement type' } },
  },
  async ({ params }) => {
    const schema = findInputSchema(params.movementType);
    if (!schema) throw new NotFound(`Unknown movement type "${params.movementType}"; known types: ${MOVEMENT_TYPES.join(', ')}`);
    return ok(schema);
  },
);
