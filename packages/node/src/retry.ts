/** When a failed request is tried again, and after how long. Pure: the client supplies the randomness. */

/** The first backoff; each retry doubles it, up to MAX_BACKOFF_MS, then a random part of it is taken off. */
export const INITIAL_BACKOFF_MS = 500;
export const MAX_BACKOFF_MS = 8_000;
/** A Retry-After longer than this is not waited for: the error is thrown to the caller instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** What came back from one try. */
export type Outcome =
  | { kind: 'network' }
  | { kind: 'answer'; status: number; code: string | undefined; retryAfter: string | null };

/**
 * Whether the outcome is worth trying again: a lost connection or a timeout, a 429, a 503, and the 409 of
 * a request whose Idempotency-Key is still running (its retry gets that request's result). `safe` says the
 * request can run twice without harm (a GET, or a POST with an Idempotency-Key); an unsafe one is only tried
 * again after a 429, which the API answers before anything runs.
 */
export function isRetryable(outcome: Outcome, safe: boolean): boolean {
  if (outcome.kind === 'network') return safe;
  if (outcome.status === 429) return true;
  if (!safe) return false;
  return outcome.status === 503 || (outcome.status === 409 && outcome.code === 'idempotency_key_in_use');
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1_000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long to wait before try number `retry` (1 for the first retry): what Retry-After asks, else an
 * exponential backoff with jitter (`random` in [0, 1)); undefined when Retry-After asks for more than
 * MAX_RETRY_AFTER_MS.
 */
export function retryDelayMs(
  retry: number,
  outcome: Outcome,
  now: number,
  random: number,
): number | undefined {
  const asked = outcome.kind === 'answer' ? retryAfterMs(outcome.retryAfter, now) : undefined;
  if (asked !== undefined) return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
  const backoff = Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** (retry - 1));
  return Math.round(backoff * (1 - random / 2));
}
