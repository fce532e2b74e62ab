/**
 * The service's one logger: one JSON line per call, `{level, msg, requestId, correlationId, …fields}`,
 * written straight to stdout (info) or stderr (warn, error), so CloudWatch gets each line as a JSON event
 * whose fields Logs Insights discovers. Our own few lines, not Powertools' Logger: that one added about 23 KB
 * to every function bundle and pushed the largest past its 300 KB budget (docs/decisions.md,
 * "Structured logging").
 *
 * The entry stacks (shared/http, shared/events) set the request id and correlation id of each invocation
 * (`startInvocation`), so a use case's line carries them without knowing the request. Lambda runs one
 * invocation at a time per instance; serverless-offline's in-process mode runs concurrent ones in one
 * process, where a use case's line may carry a concurrent request's ids (the entry stacks' own lines
 * always name theirs). Callers log names, ids, outcomes and error messages: never a header, a body, a
 * token or a secret.
 */

export type LogFields = Record<string, unknown>;
type Level = 'info' | 'warn' | 'error';
type Ids = { requestId: string; correlationId: string };

let current: Ids | undefined;

/** `level`, `msg`, the invocation's ids, then the line's fields in the caller's order (a field never replaces `level` or `msg`). */
function write(level: Level, msg: string, fields: LogFields): void {
  const head = { level, msg };
  const line = `${JSON.stringify({ ...head, ...current, ...fields, ...head })}\n`;
  (level === 'info' ? process.stdout : process.stderr).write(line);
}

export const log = {
  info: (msg: string, fields: LogFields = {}): void => write('info', msg, fields),
  warn: (msg: string, fields: LogFields = {}): void => write('warn', msg, fields),
  error: (msg: string, fields: LogFields = {}): void => write('error', msg, fields),
};

/** A caller's correlation id (`X-Correlation-Id`): 1–128 visible ASCII characters, else none. */
const CORRELATION_ID = /^[\x21-\x7e]{1,128}$/;

/** The ids a line of one invocation carries: its request id, and the correlation id the caller sent when valid, else the request id. */
export function invocationIds(requestId: string, sentCorrelationId?: string): Ids {
  return { requestId, correlationId: sentCorrelationId !== undefined && CORRELATION_ID.test(sentCorrelationId) ? sentCorrelationId : requestId };
}

/** Every line from now until `endInvocation` carries these ids. */
export function startInvocation(ids: Ids): void {
  current = { requestId: ids.requestId, correlationId: ids.correlationId };
}

/** Lines logged outside an invocation carry no ids. */
export function endInvocation(): void {
  current = undefined;
}
