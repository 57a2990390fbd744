import type { RateLimitPolicy } from '@sika/platform/pure';

/**
 * Live look-ups of a payee's name ask Sika's participant bank, which shows the holder's name: a directory of
 * people's names by phone number to whoever can make them, and a cost to Sika's standing with that bank. Each
 * is limited per merchant (a merchant registers a payout account a few times, not dozens) and for all
 * merchants together (a ceiling whatever the number of accounts someone opens). Sliding windows: the counted
 * look-ups are those of the last `windowMs`.
 */
export interface PayeeLookupLimits {
  perMerchant: RateLimitPolicy;
  global: RateLimitPolicy;
}

/** For one limit: how many look-ups its window holds, and when the oldest of them was made. */
export interface LookupWindow {
  count: number;
  oldest: Date | undefined;
}

/** Undefined when one more look-up is allowed; otherwise which limit refuses it, and for how long. */
export function lookupRefusal(
  windows: { merchant: LookupWindow; global: LookupWindow },
  limits: PayeeLookupLimits,
  now: Date,
): { limit: 'merchant' | 'global'; retryAfterSeconds: number } | undefined {
  for (const [limit, window, policy] of [
    ['merchant', windows.merchant, limits.perMerchant],
    ['global', windows.global, limits.global],
  ] as const) {
    if (window.count < policy.limit) continue;
    // One look-up leaves the window when its oldest does.
    const freedAt = (window.oldest?.getTime() ?? now.getTime()) + policy.windowMs;
    return { limit, retryAfterSeconds: Math.max(1, Math.ceil((freedAt - now.getTime()) / 1000)) };
  }
  return undefined;
}
