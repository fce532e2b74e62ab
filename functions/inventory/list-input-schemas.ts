import { httpHandler } from '../../shared/http/handler.js';
import { ok } from '../../shared/http/responses.js';
import { allInputSchemas } from '../../shared/presentation/input-schemas.js';

export const handler = httpHandler(
  {
    capability: 'none',
    summary: 'Every movement type’s form: {type, label, description, requiredFields, optionalFields, schema}, keyed by type',
    description:
      'Any signed-in user. Everything a client needs to build the form of each movement type, including the JSON Schema its `POST …/movements` body is validated against.',
    responses: { 200: { description: 'All movement input schemas', schema: 'InputSchemaListResponse' } },
  },
  async () => ok(allInputSchemas()),
);
