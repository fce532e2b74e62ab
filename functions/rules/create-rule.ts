import { httpHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { createRuleFor } from '../../shared/services/rules/definitions.js';
import { createRuleBody } from '../../schemas/compiled/rules.js';

export const handler = httpHandler(
  {
    capability: 'manage_rules',
    summary: 'Create a rule: an input (calculation template or sensor metric) over a window, a condition, a severity and actions',
    description:
      'Requires manage_rules. The input must be in GET /api/v1/rules/metadata/calculations or a sensor metric; daily inputs take whole-day windows. ' +
      'A json-logic condition may use only comparison, logic and arithmetic operators over the named inputs. `cooldownMinutes` defaults to the window. ' +
      'Send an Idempotency-Key to make retries safe: a retry gets the first answer with `Idempotent-Replayed: true`.',
    body: createRuleBody,
    headers: IDEMPOTENCY_KEY,
    responses: {
      201: { headers: ['ETag'], description: 'The rule', schema: 'RuleResponse' },
      404: { description: 'No such farm, or not one of yours' },
    },
  },
  async ({ body, ctx }) => replayable(await createRuleFor(ctx, body)),
);
