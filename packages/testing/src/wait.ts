import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitForOptions {
  /** Default 10 s. */
  timeoutMs?: number;
  /** Default 50 ms: short enough to keep tests fast, long enough not to hog the 2 cores of CI. */
  intervalMs?: number;
  /** Completes "timed out waiting for ...". */
  description?: string;
}

type Ready<T> = Exclude<T, undefined | null | false>;

/**
 * Polls `check` until it returns something other than undefined, null or false, and returns that. A check
 * that throws counts as "not yet"; its last error is quoted if the wait times out.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  options: WaitForOptions = {},
): Promise<Ready<T>> {
  const { timeoutMs = 10_000, intervalMs = 50, description = 'a condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false) return value as Ready<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const reason = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}${reason}`, {
        cause: lastError,
      });
    }
    await sleep(intervalMs);
  }
}
