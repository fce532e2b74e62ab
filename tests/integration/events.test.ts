/**
 * The non-HTTP entry stack (shared/events): an IoT rule or a scheduled job calls the same use cases as the
 * routes, as a system Caller, against the real table. What it promises: a done event returns the use
 * case's result; input that can never succeed (a payload breaking its schema, a record the caller cannot
 * see) is logged and dropped, never retried; a transient or unexpected failure is thrown so Lambda
 * retries it and finally dead-letters it; the log line never carries the payload.
 */
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemCaller } from '../../shared/domain/caller.js';
import { Unavailable } from '../../shared/errors.js';
import { eventHandler } from '../../shared/events/handler.js';
import { createFlockFor, scopedFlock } from '../../shared/services/flocks/flocks.js';
import { createFlockBody } from '../../schemas/compiled/flocks.js';
import type { CreateFlockBody } from '../../schemas/flocks.js';
import { defaultFarmId, otherFarm } from '../support/farms.js';
import { log as serviceLog } from '../../shared/platform/log.js';
import { captureLogs, type CapturedLogs, type LogLine } from '../support/logs.js';

const context = { awsRequestId: 'req-event-1' } as Context;

afterEach(() => vi.restoreAllMocks());

function logLines(logs: CapturedLogs): LogLine[] {
  return logs.lines().filter((l) => l.msg === 'event');
}

describe('shared/events: the same use cases for IoT rules and jobs', () => {
  it('runs a use case as a system caller and returns its result (written for real)', async () => {
    const farmId = await defaultFarmId();
    const job = eventHandler(
      { name: 'test-create-flock', caller: systemCaller('test', ['manage_flocks'], 'all'), payload: createFlockBody },
      ({ event, ctx }) => createFlockFor(ctx, event as CreateFlockBody),
    );
    const log = captureLogs();
    // the suite silences the success lines (LOG_REQUESTS=false); this test reads one
    process.env.LOG_REQUESTS = 'true';
    const outcome = await job({ name: 'Job flock', birdType: 'broiler', farmId }, context).finally(() => {
      process.env.LOG_REQUESTS = 'false';
    });
    expect(outcome.status).toBe('done');
    const flock = outcome.status === 'done' ? (outcome.result.data as { id: string; farmId: string }) : undefined;
    expect(flock?.farmId).toBe(farmId);
    expect((await scopedFlock(systemCaller('reader', [], [farmId]), flock!.id)).name).toBe('Job flock');
    expect(logLines(log)).toEqual([expect.objectContaining({ level: 'info', name: 'test-create-flock', requestId: 'req-event-1', outcome: 'done' })]);
  });

  it('every line logged while an event runs carries its request id and correlation id (the request id: an event has no caller’s id)', async () => {
    const logs = captureLogs();
    const job = eventHandler({ name: 'test-ids', caller: systemCaller('test', [], 'all') }, async () => serviceLog.warn('from the use case', { n: 1 }));
    await job({}, { awsRequestId: 'req-ids-1' } as Context);
    serviceLog.warn('after the event');
    const [inside, outside] = logs.lines().filter((l) => l.msg !== 'event');
    expect(inside).toEqual({ level: 'warn', msg: 'from the use case', requestId: 'req-ids-1', correlationId: 'req-ids-1', n: 1 });
    expect(outside).toEqual({ level: 'warn', msg: 'after the event' });
  });

  it('drops a payload that breaks its schema, naming the fields, and writes nothing', async () => {
    const run = vi.fn();
    const job = eventHandler({ name: 'test-bad-payload', caller: systemCaller('test', ['manage_flocks'], 'all'), payload: createFlockBody }, run);
    const log = captureLogs();
    const outcome = await job({ name: 'x', birdType: 'ostrich', secret: 'do-not-log-me' }, context);
    // the reason names the fields, as the HTTP path does (the MQTT bridge prints it)
    expect(outcome).toMatchObject({
      status: 'dropped',
      reason: expect.stringMatching(/^Validation failed: .*birdType must be one of: broiler, layer, breeder/),
    });
    expect(outcome.status === 'dropped' && outcome.reason).toMatch(/secret is not allowed/);
    expect(run).not.toHaveBeenCalled();
    const [line] = logLines(log);
    expect(line).toMatchObject({ level: 'warn', outcome: 'dropped', error: 'ValidationFailed' });
    expect(line!.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'birdType' }), expect.objectContaining({ field: 'secret' })]));
    expect(log.text()).not.toContain('do-not-log-me');
  });

  it('drops what the caller may not see: a system caller scoped to one farm finds no flock of another', async () => {
    const farmId = await defaultFarmId();
    const elsewhere = await otherFarm('Events elsewhere');
    const created = await eventHandler({ name: 'seed', caller: systemCaller('seed', ['manage_flocks'], 'all') }, ({ ctx }) =>
      createFlockFor(ctx, { name: 'Elsewhere flock', birdType: 'layer', farmId: elsewhere }),
    )({}, context);
    const flockId = created.status === 'done' ? (created.result.data as { id: string }).id : '';
    captureLogs();
    const scoped = eventHandler({ name: 'test-scoped', caller: systemCaller('scoped', ['view_analytics'], [farmId]) }, ({ caller }) =>
      scopedFlock(caller, flockId),
    );
    expect(await scoped({}, context)).toEqual({ status: 'dropped', reason: `Flock ${flockId} not found` });
  });

  it('throws transient and unexpected failures, so Lambda retries them and dead-letters them in the end', async () => {
    const log = captureLogs();
    const caller = systemCaller('test', [], 'all');
    await expect(
      eventHandler({ name: 'test-db-down', caller }, async () => {
        throw new Unavailable('table throttled');
      })({}, context),
    ).rejects.toThrow('table throttled');
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    await expect(
      eventHandler({ name: 'test-throttled', caller }, async () => {
        throw throttled;
      })({}, context),
    ).rejects.toBe(throttled);
    await expect(
      eventHandler({ name: 'test-bug', caller }, async () => {
        throw new TypeError('x is undefined');
      })({}, context),
    ).rejects.toThrow(TypeError);
    expect(logLines(log).map((l) => [l.name, l.outcome, l.level])).toEqual([
      ['test-db-down', 'retry', 'error'],
      ['test-throttled', 'retry', 'error'],
      ['test-bug', 'retry', 'error'],
    ]);
  });

  it('gives every event a request id, also when invoked without a Lambda context', async () => {
    captureLogs();
    const seen: string[] = [];
    const job = eventHandler({ name: 'test-id', caller: systemCaller('test', [], 'all') }, async ({ requestId }) => seen.push(requestId));
    await job({}, undefined as unknown as Context);
    await job({}, undefined as unknown as Context);
    expect(seen[0]).toMatch(/^[0-9A-Z]{26}$/);
    expect(seen[1]).not.toBe(seen[0]);
  });
});
