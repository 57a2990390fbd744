import type { Clock } from '@sika/platform';

import { AuthenticateKey } from './authenticate-key';
import { CreateMerchant } from './create-merchant';
import { GetMerchant } from './get-merchant';
import type { MerchantStore } from './merchant-store';
import { RenewSecretKey } from './renew-secret-key';

export interface MerchantsUseCases {
  createMerchant: CreateMerchant;
  renewSecretKey: RenewSecretKey;
  authenticateKey: AuthenticateKey;
  getMerchant: GetMerchant;
}

export interface UseCaseDependencies {
  store: MerchantStore;
  /** API_KEY_PEPPER: the HMAC key under which secret keys are hashed. */
  pepper: string;
  clock: Clock;
}

/** Every use case of the service, wired once (by main.ts, and by the tests the same way). */
export function createUseCases({ store, pepper, clock }: UseCaseDependencies): MerchantsUseCases {
  const getMerchant = new GetMerchant({ store });
  return {
    createMerchant: new CreateMerchant({ store, pepper, clock }),
    renewSecretKey: new RenewSecretKey({ store, pepper, clock }),
    authenticateKey: new AuthenticateKey({ store, pepper }),
    getMerchant,
  };
}
