/**
 * When a callback that did not get a 2xx is tried again, counted from the failed attempt: quick at first (a
 * receiver restarting is the usual cause), then spaced out. After the last delay the callback is abandoned,
 * about an hour and a half after the first attempt.
 */
export const CALLBACK_RETRY_DELAYS_MS = [
  500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000, 300_000, 900_000, 3_600_000,
] as const;

/** Delay before the next attempt after `attemptsMade` failed ones; undefined once the schedule is spent. */
export function nextAttemptDelayMs(attemptsMade: number): number | undefined {
  return CALLBACK_RETRY_DELAYS_MS[attemptsMade - 1];
}
