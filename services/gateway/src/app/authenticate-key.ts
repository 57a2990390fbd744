import { invalidKey, keyDigest, readPresentedKey } from '../domain/api-key';
import type { Merchants, Scope } from './ports';

export interface AuthenticatedKey {
  scope: Scope;
  /** Names the key for the rate limiter without keeping the key itself. */
  keyDigest: string;
}

/**
 * Spec §5: the bearer key decides the merchant and the mode. Asked of merchants on every request, with no
 * cache, so a renewed (revoked) key stops working at once.
 */
export class AuthenticateKey {
  constructor(private readonly deps: { merchants: Merchants }) {}

  async execute(authorization: string | undefined): Promise<AuthenticatedKey> {
    const presented = readPresentedKey(authorization);
    const { merchantId, livemode } = await this.deps.merchants.authenticateKey(presented.secretKey);
    // The prefix is what the merchant sees; a key whose record says otherwise must not act on either mode.
    if (livemode !== presented.livemode) throw invalidKey();
    return { scope: { merchantId, livemode }, keyDigest: keyDigest(presented.secretKey) };
  }
}
