import { httpHandler, type RouteHandler } from '../../shared/http/handler.js';
import { IDEMPOTENCY_KEY, IF_MATCH } from '../../shared/http/request-headers.js';
import { replayable } from '../../shared/http/responses.js';
import { actOnTransfer } from '../../shared/services/transfers.js';
import { transferActionBody, transferParams } from '../../schemas/compiled/sharing.js';
import type { TSchema } from '@sinclair/typebox';
import { TransferResponse, type TransferAction, type TransferActionBody } from '../../schemas/sharing.js';
import type { CompiledSchema } from '../../schemas/compiled-schema.js';

/** The route of one lifecycle step (approve, reject, cancel, complete): the step, who takes it, its words, its answer's schema, its body (approval's names the receiving flock). */
export function transferActionRoute(
  action: TransferAction,
  summary: string,
  who: string,
  extra: string,
  conflicts: string,
  answer: { schema: TSchema; description: string } = { schema: TransferResponse, description: 'The transfer, as it is now' },
  body: CompiledSchema<TransferActionBody> = transferActionBody,
  notFound = 'No such transfer, or one between farms you cannot see',
): RouteHandler {
  return httpHandler(
    {
      capability: 'manage_transfers',
      summary,
      description:
        `Requires manage_transfers, as ${who} (else 403). ${extra}` +
        '`note` is kept on the transfer; `If-Match` or `version` make it conditional. A move the lifecycle does not allow answers 409 naming the status. ' +
        'Send an Idempotency-Key to make retries safe: a retry gets the first answer with `Idempotent-Replayed: true`.',
      params: transferParams,
      body,
      headers: { ...IF_MATCH, ...IDEMPOTENCY_KEY },
      responses: {
        200: { headers: ['ETag'], description: answer.description, schema: answer.schema },
        403: { description: `Not ${who}` },
        404: { description: notFound },
        409: { description: `Not allowed from its status, changed concurrently (or a stale \`version\`)${conflicts}` },
      },
    },
    async ({ params, body, headers, ifMatch, user, requestId }) =>
      replayable(await actOnTransfer(user, params.transferId, action, body, ifMatch, requestId, headers['idempotency-key'])),
  );
}
