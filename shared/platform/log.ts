import { LogFormatter, LogItem, Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';

/**
 * The service's one logger: one JSON line per call, `{level, msg, requestId, correlationId, …fields}`,
 * written by Powertools for AWS Lambda (Logger) straight to stdout (info) or stderr (warn, error), so
 * CloudWatch gets each line as a JSON event. Powertools filters by level (`POWERTOOLS_LOG_LEVEL`, or the
 * function's log level in Lambda's advanced logging controls) and adds the X-Ray trace id when tracing
 * is on. The entry stacks (shared/http, shared/events) set the request id and correlation id of each
 * invocation (`startInvocation`), so a use case's line carries them without knowing the request. Lambda
 * runs one invocation at a time per instance; serverless-offline's in-process mode runs concurrent ones
 * in one process, where a use case's line may carry a concurrent request's ids (the entry stacks' own
 * lines always name theirs). Callers log names, ids, outcomes and error messages: never a header, a
 * body, a token or a secret.
 */

export type LogFields = Record<string, unknown>;

/**
 * A line's own fields travel under this key, past Powertools' reserved names (`message`, `level`,
 * `timestamp`, `service`, which it would drop): this module's format, not Powertools' default, owns them.
 */
const FIELDS = 'fields';

/** A line keeps its null fields (`userId: null` says "no user"); Powertools' default drops them. */
class Line extends LogItem {
  override prepareForPrint(): void {}
}

/** `level` in lower case, `msg`, the invocation's ids, then the line's fields (in the caller's order; a field never replaces `level` or `msg`). */
class LineFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const { [FIELDS]: fields, ...keys } = additional;
    const head = { level: attributes.logLevel.toLowerCase(), msg: attributes.message };
    const trace = attributes.xRayTraceId ? { xrayTraceId: attributes.xRayTraceId } : {};
    return new Line({ attributes: { ...head, ...keys, ...(fields as LogFields | undefined), ...head, ...trace } });
  }
}

const logger = new Logger({ logFormatter: new LineFormatter() });

export const log = {
  info: (msg: string, fields: LogFields = {}): void => logger.info(msg, { [FIELDS]: fields }),
  warn: (msg: string, fields: LogFields = {}): void => logger.warn(msg, { [FIELDS]: fields }),
  error: (msg: string, fields: LogFields = {}): void => logger.error(msg, { [FIELDS]: fields }),
};

/** A caller's correlation id (`X-Correlation-Id`): 1–128 visible ASCII characters, else none. */
const CORRELATION_ID = /^[\x21-\x7e]{1,128}$/;

/** The ids a line of one invocation carries: its request id, and the correlation id the caller sent when valid, else the request id. */
export function invocationIds(requestId: string, sentCorrelationId?: string): { requestId: string; correlationId: string } {
  return { requestId, correlationId: sentCorrelationId !== undefined && CORRELATION_ID.test(sentCorrelationId) ? sentCorrelationId : requestId };
}

/** Every line from now until `endInvocation` carries these ids. */
export function startInvocation(ids: { requestId: string; correlationId: string }): void {
  logger.resetKeys();
  logger.appendKeys(ids);
}

/** Lines logged outside an invocation carry no ids. */
export function endInvocation(): void {
  logger.resetKeys();
}
