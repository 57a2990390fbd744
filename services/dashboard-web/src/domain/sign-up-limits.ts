import { decide, windowAt, type RateLimitPolicy } from '@sika/platform/pure';

/**
 * Sign-ups allowed per window, counted before anything is hashed or created: each costs an argon2id hash and a
 * merchant in the merchants service. Per client address (an IPv6 address by its /64), a few: a business signs
 * up once, a shared NAT now and then; for everyone together, a ceiling that a script spread over many
 * addresses still meets.
 */
export interface SignUpLimits {
  perAddress: RateLimitPolicy;
  global: RateLimitPolicy;
}

/** This sign-up's counts in the current windows, itself included: undefined when allowed, else the wait. */
export function signUpRefusal(
  counts: { address: number; global: number },
  limits: SignUpLimits,
  nowMs: number,
): { retryAfterSeconds: number } | undefined {
  const refusals = [
    decide(counts.address, limits.perAddress, windowAt(nowMs, limits.perAddress.windowMs)),
    decide(counts.global, limits.global, windowAt(nowMs, limits.global.windowMs)),
  ].filter((decision) => !decision.allowed);
  if (refusals.length === 0) return undefined;
  return { retryAfterSeconds: Math.max(...refusals.map((decision) => decision.resetSeconds)) };
}
