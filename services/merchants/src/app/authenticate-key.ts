import { AppError, type Clock } from '@sika/platform';

import { hashSecretKey, secretKeyMode } from '../domain/secret-key';
import type { MerchantStore } from './ports';

/** Public message: says neither whether the key exists nor which part of it is wrong. */
const INVALID_KEY_MESSAGE = 'Invalid API key provided.';

/** Resolves a presented secret key to its merchant and mode (spec §5): the key alone decides both. */
export class AuthenticateKey {
  constructor(private readonly dependencies: { store: MerchantStore; pepper: string; clock: Clock }) {}

  async execute({ secretKey }: { secretKey: string }): Promise<{ merchantId: string; livemode: boolean }> {
    const { store, pepper, clock } = this.dependencies;
    // A malformed key cannot be stored, so it is refused without a database round trip.
    if (secretKeyMode(secretKey) === undefined) throw new AppError('api_key_invalid', INVALID_KEY_MESSAGE);
    // A replaced key works until the end of the overlap its renewal chose.
    const owner = await store.findActiveKeyOwner(hashSecretKey(pepper, secretKey), clock.now());
    if (owner === undefined || (owner.livemode && !owner.liveEnabled)) {
      throw new AppError('api_key_invalid', INVALID_KEY_MESSAGE);
    }
    return { merchantId: owner.merchantId, livemode: owner.livemode };
  }
}
