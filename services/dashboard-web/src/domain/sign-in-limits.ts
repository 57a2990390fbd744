import { decide, windowAt, type RateLimitDecision, type RateLimitPolicy } from '@sika/platform/pure';

/**
 * Failed sign-ins allowed per window: few per account (a password guessed slowly against one merchant), more
 * per address (several people behind one NAT, which is common on West African mobile networks).
 */
export interface SignInLimits {
  perAccount: RateLimitPolicy;
  perAddress: RateLimitPolicy;
}

export interface FailureCounts {
  account: number;
  address: number;
}

/**
 * Whether one more attempt may be checked after these failures in the current windows: refused as soon as
 * either count reached its limit, with the longer wait of the two when both did.
 */
export function signInVerdict(counts: FailureCounts, limits: SignInLimits, nowMs: number): RateLimitDecision {
  const account = decide(counts.account + 1, limits.perAccount, windowAt(nowMs, limits.perAccount.windowMs));
  const address = decide(counts.address + 1, limits.perAddress, windowAt(nowMs, limits.perAddress.windowMs));
  if (account.allowed && address.allowed) return account.remaining <= address.remaining ? account : address;
  const refusals = [account, address].filter((decision) => !decision.allowed);
  return refusals.reduce((longest, decision) =>
    decision.resetSeconds > longest.resetSeconds ? decision : longest,
  );
}
