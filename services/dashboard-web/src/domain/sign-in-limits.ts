import { decide, windowAt, type RateLimitPolicy } from '@sika/platform/pure';

/**
 * Sign-in attempts allowed per window, counted before the password is checked: few per account (a password
 * guessed slowly against one merchant), more per address (several people behind one NAT, which is common on
 * West African mobile networks). Past its limit an account is slowed down, not locked: one attempt per
 * `accountSlowDownMs`, so that whoever guesses cannot keep its owner out of the dashboard.
 */
export interface SignInLimits {
  perAccount: RateLimitPolicy;
  perAddress: RateLimitPolicy;
  accountSlowDownMs: number;
}

/** This attempt's counts in the current windows, itself included. */
export interface AttemptCounts {
  account: number;
  address: number;
}

export type SignInVerdict =
  | { kind: 'allowed' }
  | { kind: 'limited'; retryAfterSeconds: number }
  /** The account is past its limit: allowed only if no other attempt on it took the current turn. */
  | { kind: 'slowed_down' };

export function signInVerdict(counts: AttemptCounts, limits: SignInLimits, nowMs: number): SignInVerdict {
  const address = decide(counts.address, limits.perAddress, windowAt(nowMs, limits.perAddress.windowMs));
  if (!address.allowed) return { kind: 'limited', retryAfterSeconds: address.resetSeconds };
  if (counts.account > limits.perAccount.limit) return { kind: 'slowed_down' };
  return { kind: 'allowed' };
}
