import { AppError, type RecentAnswers } from '@sika/platform';

import { invalidKey, keyDigest, readPresentedKey } from '../domain/api-key';
import type { AuthFailureLimiter, Merchants, Scope } from './ports';

export interface AuthenticatedKey {
  scope: Scope;
  /** Names the key for the rate limiter without keeping the key itself. */
  keyDigest: string;
}

export type Authentication =
  | { outcome: 'authenticated'; key: AuthenticatedKey }
  /** A failed authentication from an address past its limit of failures. */
  | { outcome: 'limited'; retryAfterSeconds: number };

function isAuthenticationFailure(error: unknown): boolean {
  return error instanceof AppError && error.catalogEntry.type === 'authentication_error';
}

/**
 * Spec §5: the bearer key decides the merchant and the mode. Merchants' answer for a valid key is reused
 * for at most a second (`recentKeys`), so a renewed (revoked) key stops working within a second on every
 * gateway, while a busy key costs merchants one question a second. Every 401 counts against the client's address;
 * past its limit, an address's failed authentications are answered 429 and no longer counted, while a valid key
 * is still served: a merchant's servers that still send a replaced key must not lock out the valid key behind the
 * same address. Successes never count.
 */
export class AuthenticateKey {
  constructor(
    private readonly deps: {
      merchants: Merchants;
      failures: AuthFailureLimiter;
      /** Merchants' answers by key digest (the key itself is not kept). */
      recentKeys: RecentAnswers<Scope>;
    },
  ) {}

  async execute(authorization: string | undefined, clientAddress: string): Promise<Authentication> {
    const { merchants, failures, recentKeys } = this.deps;
    const verdict = await failures.check(clientAddress);
    try {
      const presented = readPresentedKey(authorization);
      const digest = keyDigest(presented.secretKey);
      const { merchantId, livemode } = await recentKeys.get(digest, () =>
        merchants.authenticateKey(presented.secretKey),
      );
      // The prefix is what the merchant sees; a key whose record says otherwise must not act on either mode.
      if (livemode !== presented.livemode) throw invalidKey();
      return { outcome: 'authenticated', key: { scope: { merchantId, livemode }, keyDigest: digest } };
    } catch (error) {
      if (!isAuthenticationFailure(error)) throw error;
      if (verdict !== undefined && !verdict.allowed) {
        return { outcome: 'limited', retryAfterSeconds: verdict.resetSeconds };
      }
      await failures.recordFailure(clientAddress);
      throw error;
    }
  }
}
