/** shared/platform/log.ts: one JSON line per call, on stdout or stderr by level, with the invocation's ids. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endInvocation, invocationIds, log, startInvocation } from '../../shared/platform/log.js';
import { captureLogs } from '../support/logs.js';

afterEach(() => {
  endInvocation();
  vi.restoreAllMocks();
});

describe('log lines', () => {
  it('one JSON line: level, msg, then the fields in order; info on stdout, warnings and errors on stderr', () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    log.info('request', { status: 200, userId: null });
    log.warn('detectors failed', { flockId: 'f1' });
    log.error('unhandled error', { error: 'TypeError', message: 'x is undefined' });
    expect(out.mock.calls.map((c) => c[0])).toEqual(['{"level":"info","msg":"request","status":200,"userId":null}\n']);
    expect(err.mock.calls.map((c) => c[0])).toEqual([
      '{"level":"warn","msg":"detectors failed","flockId":"f1"}\n',
      '{"level":"error","msg":"unhandled error","error":"TypeError","message":"x is undefined"}\n',
    ]);
  });

  it('a field never replaces the level or the message; a value with a line break stays on one line', () => {
    const logs = captureLogs();
    log.warn('checked', { level: 'info', msg: 'forged', reason: 'a\nb' });
    expect(logs.text().split('\n').filter(Boolean)).toHaveLength(1);
    expect(logs.lines()).toEqual([{ level: 'warn', msg: 'checked', reason: 'a\nb' }]);
  });

  it('between startInvocation and endInvocation every line carries the ids; a line’s own ids win', () => {
    const logs = captureLogs();
    startInvocation({ requestId: 'r-1', correlationId: 'c-1' });
    log.info('inside');
    log.error('own', { requestId: 'r-2', correlationId: 'c-2' });
    startInvocation({ requestId: 'r-3', correlationId: 'r-3' });
    log.warn('next');
    endInvocation();
    log.info('outside');
    expect(logs.lines()).toEqual([
      { level: 'info', msg: 'inside', requestId: 'r-1', correlationId: 'c-1' },
      { level: 'error', msg: 'own', requestId: 'r-2', correlationId: 'c-2' },
      { level: 'warn', msg: 'next', requestId: 'r-3', correlationId: 'r-3' },
      { level: 'info', msg: 'outside' },
    ]);
  });
});

describe('invocationIds', () => {
  it('takes the caller’s correlation id when it is 1–128 visible ASCII characters', () => {
    expect(invocationIds('req', 'Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1')).toEqual({
      requestId: 'req',
      correlationId: 'Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1',
    });
    expect(invocationIds('req', 'x'.repeat(128)).correlationId).toBe('x'.repeat(128));
  });

  it('else the request id: none sent, empty, too long, spaces, control or non-ASCII characters', () => {
    for (const sent of [undefined, '', 'x'.repeat(129), 'two words', 'line\nbreak', 'tab\there', 'café']) {
      expect(invocationIds('req', sent), JSON.stringify(sent)).toEqual({ requestId: 'req', correlationId: 'req' });
    }
  });
});
