import type { ResponseSchemaName } from '../../shared/http/context.js';
import { httpHandler, type RouteHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY, IF_MATCH } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { actOnTransfer } from '../../shared/services/transfers/steps.js';
import { transferActionBody, transferParams } from '../../schemas/compiled/sharing.js';
import type { CompiledSchema } from '../../schemas/compiled-schema.js';
import type { TransferAction, TransferActionBody } from '../../schemas/sharing.js';

/** What the route of one lifecycle step says of itself: who takes it, what it does, what else conflicts, its answer and its body. */
export interface TransferStepDoc {
  summary: string;
  who: string;
  extra?: string;
  conflicts?: string;
  answer?: { schema: ResponseSchemaName; description: string };
  /** Approval's body names the receiving flock. */
  body?: CompiledSchema<TransferActionBody>;
  notFound?: string;
}

/** The route of one lifecycle step (approve, reject, cancel, complete). */
export function transferActionRoute(action: TransferAction, doc: TransferStepDoc): RouteHandler {
  const { who, answer = { schema: 'TransferResponse', description: 'The transfer, as it is now' } } = doc;
  return httpHandler(
    {
      capability: 'manage_transfers',
      summary: doc.summary,
      description:
        `Requires manage_transfers, as ${who} (else 403). ${doc.extra ?? ''}` +
        '`note` is kept on the transfer; `If-Match` or `version` make it conditional. A move the lifecycle does not allow answers 409 naming the status. ' +
        'Send an Idempotency-Key to make retries safe: a retry gets the first answer with `Idempotent-Replayed: true`.',
      params: transferParams,
      body: doc.body ?? transferActionBody,
      headers: { ...IF_MATCH, ...IDEMPOTENCY_KEY },
      responses: {
        200: { headers: ['ETag'], description: answer.description, schema: answer.schema },
        403: { description: `Not ${who}` },
        404: { description: doc.notFound ?? 'No such transfer, or one between farms you cannot see' },
        409: { description: `Not allowed from its status, changed concurrently (or a stale \`version\`)${doc.conflicts ?? ''}` },
      },
    },
    async ({ params, body, ctx }) => replayable(await actOnTransfer(ctx, params.transferId, action, body)),
  );
}
