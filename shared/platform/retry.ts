/**
 * The one retry policy: a bounded number of attempts with exponential backoff and full jitter, the
 * pause before retry n (n ≥ 1) drawn uniformly from [0, min(capMs, baseMs · 2^n)) ("Exponential Backoff
 * And Jitter", AWS Architecture Blog, 2015: https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/).
 * Racing writers spread out instead of colliding again in step, and no pause exceeds the cap. Pure apart
 * from the timer it waits on (no I/O), so every layer may use it.
 */

export interface Backoff {
  /** The first retry pauses up to 2 · baseMs, each further one up to twice as long as the one before… */
  baseMs: number;
  /** …but never longer than this. */
  capMs: number;
}

export interface RetryPolicy extends Backoff {
  /** Tries in all, the first included (≥ 1). */
  attempts: number;
}

/** How long to pause before retry `n` (1 = the first retry): full jitter, within [0, min(cap, base · 2^n)). */
export function backoffMs(n: number, policy: Backoff, random: () => number = Math.random): number {
  return random() * Math.min(policy.capMs, policy.baseMs * 2 ** n);
}

/** Waits the backoff of retry `n`: for a loop that decides by itself when to try again. */
export const pause = (n: number, policy: Backoff): Promise<void> => new Promise((resolve) => setTimeout(resolve, backoffMs(n, policy)));

export interface RetryOptions extends RetryPolicy {
  /** Whether a failure may pass with another try (a lost race, a throttled call); any other is thrown at once. */
  retryOn: (err: unknown) => boolean;
  /** The error to throw when the last attempt failed with a retryable error (default: that error). */
  exhausted?: (err: unknown) => unknown;
}

/**
 * Calls `fn` (with the number of the attempt, from 1) until it succeeds, fails with an error `retryOn`
 * refuses (thrown at once), or `attempts` tries have failed (then `exhausted(err)`, or the last error).
 */
export async function retry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (!options.retryOn(err)) throw err;
      if (attempt >= options.attempts) throw options.exhausted ? options.exhausted(err) : err;
      await pause(attempt, options);
    }
  }
}
