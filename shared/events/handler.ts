import middy, { type MiddlewareObj, type Request } from '@middy/core';
import type { Context } from 'aws-lambda';
import { ulid } from 'ulidx';
import { isDatabaseUnavailable } from '../db/client.js';
import { endInvocation, invocationIds, log as logLine, startInvocation } from '../platform/log.js';
import type { Caller } from '../domain/caller.js';
import { commandContext, type CommandContext } from '../domain/command.js';
import { Conflict, Forbidden, Invalid, NotFound, PreconditionFailed, Refused, Unauthenticated, ValidationFailed, type FieldError } from '../errors.js';
import type { CompiledSchema } from '../../schemas/compiled-schema.js';
import { problemsOf } from '../../schemas/problems.js';

/**
 * The entry-point stack for everything that is not HTTP: IoT Core topic rules (a device frame),
 * scheduled jobs and the functions the service invokes itself (alarms on new data, continuity jobs).
 * The same use cases as the routes, called as a system Caller that holds exactly the capabilities the
 * job needs. What a failure means here:
 * - bad input or a state the event cannot change (invalid, not found, forbidden, conflict, refused):
 *   logged and dropped — retrying the same event would fail the same way, for ever;
 * - anything else (the database unreachable or throttled, a bug): thrown, so Lambda retries the
 *   asynchronous invocation and, when retries run out, sends it to the dead-letter destination.
 * One JSON log line per event (name, request id, outcome, duration); never the payload.
 */
export interface EventSpec<E> {
  /** The job or rule, as it appears in logs (`iot-telemetry`, `predictive-job`). */
  name: string;
  /** Who the use cases act for. */
  caller: Caller;
  /** The payload's schema (precompiled like the routes'); a payload that breaks it is dropped. */
  payload?: CompiledSchema<E>;
}

/** A dropped event says why, naming each bad field as the HTTP path does (`readings.0.ts must match format "date-time"`). */
export type EventOutcome<R> = { status: 'done'; result: R } | { status: 'dropped'; reason: string; details?: FieldError[] };

/** Kinds of failure that a retry of the same event cannot cure. */
const PERMANENT = [Invalid, Unauthenticated, Forbidden, NotFound, Conflict, PreconditionFailed, Refused];

type EventState = { started: number };
type EventMiddleware = MiddlewareObj<unknown, EventOutcome<unknown>, Error, Context, EventState>;
type EventRequest = Request<unknown, EventOutcome<unknown>, Error, Context, EventState>;

function log(name: string, request: EventRequest, level: 'info' | 'warn' | 'error', outcome: string, extra: Record<string, unknown> = {}) {
  const durationMs = Math.round((performance.now() - request.internal.started) * 10) / 10;
  logLine[level]('event', { name, ...invocationIds(request.context.awsRequestId), outcome, durationMs, ...extra });
}

/** A request id for every event (Lambda's, or a new one when invoked without), the start time, one log line when done. */
const eventContext = (name: string): EventMiddleware => ({
  before: (request) => {
    request.context = { ...(request.context ?? {}), awsRequestId: request.context?.awsRequestId || ulid() } as Context;
    request.internal.started = performance.now();
    startInvocation(invocationIds(request.context.awsRequestId));
  },
  // like the request log, the success line is silenced by LOG_REQUESTS=false (drops and retries always log)
  after: (request) => {
    if (process.env.LOG_REQUESTS !== 'false') log(name, request, 'info', 'done');
    endInvocation();
  },
  onError: () => endInvocation(),
});

/** The error's message followed by its first fields and their problems (what a log line of the drop can be read by). */
function reasonOf(message: string, details: readonly FieldError[] | undefined): string {
  if (!details?.length) return message;
  const named = details.slice(0, 5).map((d) => `${d.field || 'the payload'} ${d.message}`);
  return `${message}: ${named.join('; ')}${details.length > 5 ? ` (and ${details.length - 5} more)` : ''}`;
}

/** Drop what a retry cannot cure; let everything else fail the invocation (Lambda retries it, then the dead-letter destination). */
const failurePolicy = (name: string): EventMiddleware => ({
  onError: (request) => {
    const err = request.error!;
    if (!isDatabaseUnavailable(err) && PERMANENT.some((kind) => err instanceof kind)) {
      const details = err instanceof Invalid ? err.details : undefined;
      const reason = reasonOf(err.message, details);
      log(name, request, 'warn', 'dropped', { error: err.name, reason, ...(details ? { details } : {}) });
      request.response = { status: 'dropped', reason, ...(details ? { details } : {}) };
      return;
    }
    log(name, request, 'error', 'retry', { error: err.name ?? 'Error', message: err.message ?? String(err) });
  },
});

/** The payload against its precompiled schema: a payload that breaks it can never succeed. */
const payloadCheck = (schema: CompiledSchema<unknown> | undefined): EventMiddleware => ({
  before: (request) => {
    const problems = schema ? problemsOf(schema, request.event) : [];
    if (problems.length > 0) throw new ValidationFailed(problems.slice(0, 20));
  },
});

export function eventHandler<E, R>(
  spec: EventSpec<E>,
  fn: (input: { event: E; caller: Caller; requestId: string; ctx: CommandContext }) => Promise<R>,
): (event: unknown, context: Context) => Promise<EventOutcome<R>> {
  const handler = middy<unknown, EventOutcome<unknown>, Error, Context, EventState>()
    .use(eventContext(spec.name))
    .use(failurePolicy(spec.name))
    .use(payloadCheck(spec.payload as CompiledSchema<unknown> | undefined))
    .handler(async (event, context) => {
      const ctx = commandContext(spec.caller, { requestId: context.awsRequestId });
      return { status: 'done', result: await fn({ event: event as E, caller: spec.caller, requestId: context.awsRequestId, ctx }) };
    });
  return handler as unknown as (event: unknown, context: Context) => Promise<EventOutcome<R>>;
}
