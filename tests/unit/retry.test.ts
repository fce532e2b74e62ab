/** shared/platform/retry.ts: full-jitter backoff within its bounds, the attempt count, and what is never retried. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffMs, retry } from '../../shared/platform/retry.js';

const policy = { baseMs: 10, capMs: 100 };
class Retryable extends Error {}

/** The pauses `retry` asks the timer for, without waiting them. */
function recordPauses(): number[] {
  const pauses: number[] = [];
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms: number) => {
    pauses.push(ms);
    fn();
    return 0;
  }) as never);
  return pauses;
}

afterEach(() => vi.restoreAllMocks());

describe('backoffMs: full jitter', () => {
  it('draws from [0, min(cap, base · 2^n)): zero at the bottom, just under the ceiling at the top', () => {
    for (const n of [1, 2, 3, 4, 5, 10]) {
      const ceiling = Math.min(100, 10 * 2 ** n);
      expect(backoffMs(n, policy, () => 0)).toBe(0);
      expect(backoffMs(n, policy, () => 0.999_999)).toBeLessThan(ceiling);
      expect(backoffMs(n, policy, () => 0.999_999)).toBeGreaterThan(ceiling * 0.999);
    }
  });

  it('doubles the ceiling each retry until the cap, then stays there', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, policy, () => 0.5))).toEqual([10, 20, 40, 50, 50, 50]);
  });

  it('with Math.random every draw lies within the bounds, and they spread out', () => {
    const draws = Array.from({ length: 2000 }, () => backoffMs(3, policy));
    expect(draws.every((d) => d >= 0 && d < 80)).toBe(true);
    expect(Math.min(...draws)).toBeLessThan(8);
    expect(Math.max(...draws)).toBeGreaterThan(72);
  });
});

describe('retry', () => {
  const options = { attempts: 5, ...policy, retryOn: (err: unknown) => err instanceof Retryable };

  it('answers the first success without pausing', async () => {
    const pauses = recordPauses();
    const fn = vi.fn(async () => 'done');
    expect(await retry(fn, options)).toBe('done');
    expect(fn).toHaveBeenCalledTimes(1);
    expect(pauses).toEqual([]);
  });

  it('retries a retryable failure, numbering the attempts, with a backoff pause before each retry', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const pauses = recordPauses();
    const seen: number[] = [];
    const result = await retry(async (attempt) => {
      seen.push(attempt);
      if (attempt < 4) throw new Retryable();
      return attempt;
    }, options);
    expect(result).toBe(4);
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(pauses).toEqual([10, 20, 40]);
  });

  it('tries exactly `attempts` times, then throws the last error, or what `exhausted` makes of it', async () => {
    recordPauses();
    const last = new Retryable('still racing');
    const fn = vi.fn(async () => {
      throw last;
    });
    await expect(retry(fn, options)).rejects.toBe(last);
    expect(fn).toHaveBeenCalledTimes(5);

    const gaveUp = new Error('gave up');
    const again = vi.fn(async () => {
      throw new Retryable();
    });
    await expect(retry(again, { ...options, attempts: 3, exhausted: () => gaveUp })).rejects.toBe(gaveUp);
    expect(again).toHaveBeenCalledTimes(3);
  });

  it('throws a failure retryOn refuses at once, as it is, without pausing', async () => {
    const pauses = recordPauses();
    const bug = new TypeError('x is undefined');
    const fn = vi.fn(async (attempt: number) => {
      if (attempt === 1) throw new Retryable();
      throw bug;
    });
    await expect(retry(fn, { ...options, exhausted: () => new Error('not this') })).rejects.toBe(bug);
    expect(fn).toHaveBeenCalledTimes(2);
    expect(pauses).toHaveLength(1);
  });

  it('one attempt means no retry at all', async () => {
    const fn = vi.fn(async () => {
      throw new Retryable();
    });
    await expect(retry(fn, { ...options, attempts: 1 })).rejects.toBeInstanceOf(Retryable);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
