import type { Caller } from './caller.js';
import type { Precondition } from './concurrency.js';

/**
 * What every use case is given besides its plain values, whatever the entry point (an HTTP route, an
 * IoT Core rule, a scheduled job): who acts, the request it belongs to (recorded in the audit), the
 * client's Idempotency-Key for a create, the client's precondition for a change (an HTTP `If-Match`),
 * and the one instant the command happens at (every timestamp it writes).
 */
export interface CommandContext {
  caller: Caller;
  requestId: string | null;
  idempotencyKey?: string | undefined;
  precondition?: Precondition | undefined;
  now: Date;
}

/** A command's context from its parts; `now` defaults to the present. */
export function commandContext(caller: Caller, parts: Partial<Omit<CommandContext, 'caller'>> = {}): CommandContext {
  return {
    caller,
    requestId: parts.requestId ?? null,
    ...(parts.idempotencyKey !== undefined ? { idempotencyKey: parts.idempotencyKey } : {}),
    ...(parts.precondition !== undefined ? { precondition: parts.precondition } : {}),
    now: parts.now ?? new Date(),
  };
}
