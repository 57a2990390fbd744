import { AppError } from '@sika/platform';

import { invalidKey, keyDigest, readPresentedKey } from '../domain/api-key';
import type { AuthFailureLimiter, Merchants, Scope } from './ports';

export interface AuthenticatedKey {
  scope: Scope;
  /** Names the key for the rate limiter without keeping the key itself. */
  keyDigest: string;
}

export type Authentication =
  | { outcome: 'authenticated'; key: AuthenticatedKey }
  /** Too many failed authentications from the client's address: nothing was checked. */
  | { outcome: 'limited'; retryAfterSeconds: number };

function isAuthenticationFailure(error: unknown): boolean {
  return error instanceof AppError && error.catalogEntry.type === 'authentication_error';
}

/**
 * Spec §5: the bearer key decides the merchant and the mode. Asked of merchants on every request, with no
 * cache, so a renewed (revoked) key stops working at once. Every 401 counts against the client's address;
 * an address past its limit is refused before anything is parsed or asked, so a flood of bad keys costs
 * merchants (and its database) nothing. Successes never count.
 */
export class AuthenticateKey {
  constructor(private readonly deps: { merchants: Merchants; failures: AuthFailureLimiter }) {}

  async execute(authorization: string | undefined, clientAddress: string): Promise<Authentication> {
    const { merchants, failures } = this.deps;
    const verdict = await failures.check(clientAddress);
    if (verdict !== undefined && !verdict.allowed) {
      return { outcome: 'limited', retryAfterSeconds: verdict.resetSeconds };
    }
    try {
      const presented = readPresentedKey(authorization);
      const { merchantId, livemode } = await merchants.authenticateKey(presented.secretKey);
      // The prefix is what the merchant sees; a key whose record says otherwise must not act on either mode.
      if (livemode !== presented.livemode) throw invalidKey();
      return {
        outcome: 'authenticated',
        key: { scope: { merchantId, livemode }, keyDigest: keyDigest(presented.secretKey) },
      };
    } catch (error) {
      if (isAuthenticationFailure(error)) await failures.recordFailure(clientAddress);
      throw error;
    }
  }
}
