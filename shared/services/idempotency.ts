import { createHash } from 'node:crypto';
import { getStoredResponse, type StoredResponse } from '../db/idempotency.js';
import type { CommitContext } from '../db/commit.js';
import type { CommandContext } from '../domain/command.js';
import { Conflict, DuplicateRequest, Refused, ValidationFailed } from '../errors.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../../schemas/compiled/constants/common.js';

/**
 * Idempotent creates: the same Idempotency-Key with the same body returns the first response
 * without writing again, also when retries race (the stored response is written in the same transaction
 * as the record, and a retry that loses the race reads the winner's); another body → Refused.
 */
export { DuplicateRequest };

export interface IdempotentResult extends StoredResponse {
  replayed: boolean;
}

const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

function hashOf(scope: string, payload: unknown): string {
  return createHash('sha256').update(scope).update('\0').update(JSON.stringify(payload)).digest('base64url');
}

/**
 * An idempotent create as a command: without an Idempotency-Key, `run` simply runs; with one, a retry
 * (same key, same scope and payload) gets the first outcome back without running again, another payload
 * with the same key is Refused, and `run` is given a context whose commit keeps the plan's `response` in
 * the same transaction as the write (shared/db/commit.ts).
 */
export function idempotentCommand(
  ctx: CommandContext,
  scope: string,
  payload: unknown,
  run: (ctx: CommitContext) => Promise<StoredResponse>,
): Promise<IdempotentResult> {
  return idempotentAfterReading(ctx, scope, payload, async () => undefined, run);
}

/**
 * The same, with the use case's first read (`read`) made together with the lookup of a kept response, in
 * one round trip. A failing read (a record out of the caller's scope) fails the request before a replay.
 */
export async function idempotentAfterReading<B>(
  ctx: CommandContext,
  scope: string,
  payload: unknown,
  read: () => Promise<B>,
  run: (ctx: CommitContext, basis: B) => Promise<StoredResponse>,
): Promise<IdempotentResult> {
  const key = ctx.idempotencyKey;
  const userId = ctx.caller.id;
  if (key === undefined) return { ...(await run(ctx, await read())), replayed: false };
  if (!KEY.test(key)) throw new ValidationFailed([{ field: 'Idempotency-Key', message: 'must be 1–255 visible ASCII characters' }]);
  const requestHash = hashOf(scope, payload);
  const replay = async () => {
    const stored = await getStoredResponse(userId, key);
    if (!stored) return undefined;
    if (stored.requestHash !== requestHash) throw new Refused('Idempotency-Key was already used with a different request');
    return { ...stored.response, replayed: true };
  };
  const [basis, earlier] = await Promise.allSettled([read(), replay()]);
  if (basis.status === 'rejected') throw basis.reason;
  if (earlier.status === 'rejected') throw earlier.reason;
  if (earlier.value) return earlier.value;
  try {
    return { ...(await run({ ...ctx, remember: { userId, key, requestHash } }, basis.value)), replayed: false };
  } catch (err) {
    // A twin of this request may have won meanwhile (its write is why this one conflicts, e.g. "flock
    // already has an active cycle"): then this is a retry, and it gets the twin's response.
    if (!(err instanceof Conflict)) throw err;
    const winner = await replay();
    if (winner) return winner;
    throw err;
  }
}
