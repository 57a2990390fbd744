/** A fixed-window limit: at most `limit` requests per key in each window of `windowMs`. */
export interface RateLimitPolicy {
  limit: number;
  windowMs: number;
}

export interface WindowPosition {
  /** Number of the window containing `nowMs`, shared by every replica (windows start at the Unix epoch). */
  index: number;
  /** Milliseconds until this window ends and the count starts again. */
  remainingMs: number;
}

export function windowAt(nowMs: number, windowMs: number): WindowPosition {
  const index = Math.floor(nowMs / windowMs);
  return { index, remainingMs: (index + 1) * windowMs - nowMs };
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets, at least 1 (the `RateLimit-Reset` and `Retry-After` value). */
  resetSeconds: number;
}

/** The decision for the `count`-th request of a window (counting this one). */
export function decide(count: number, policy: RateLimitPolicy, position: WindowPosition): RateLimitDecision {
  return {
    allowed: count <= policy.limit,
    limit: policy.limit,
    remaining: Math.max(0, policy.limit - count),
    resetSeconds: Math.max(1, Math.ceil(position.remainingMs / 1000)),
  };
}
