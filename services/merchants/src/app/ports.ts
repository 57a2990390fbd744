import type { FeeRule } from '@sika/fees';

import type { SecretKeyRecord } from '../domain/secret-key';

/** A merchant as the use cases see it. */
export interface MerchantRecord {
  id: string;
  name: string;
  feeRule: FeeRule;
  liveEnabled: boolean;
  createdAt: Date;
}

/** The owner of an active (not revoked) key. */
export interface KeyOwner {
  merchantId: string;
  livemode: boolean;
  liveEnabled: boolean;
}

/** The merchants schema, as the use cases need it (implemented with Prisma in infra/). */
export interface MerchantStore {
  /** Creates the merchant and its first (test) key together: a merchant never exists without a key. */
  createWithKey(
    merchant: { id: string; name: string; createdAt: Date },
    key: SecretKeyRecord,
  ): Promise<MerchantRecord>;
  /**
   * In one transaction: revokes the merchant's active key of `key.livemode` (if any) as of `key.createdAt`,
   * stores `key`, and enables live mode when it is a live key. False when the merchant does not exist.
   */
  replaceActiveKey(merchantId: string, key: SecretKeyRecord): Promise<boolean>;
  /** The owner of the active key with this hash; undefined for unknown and revoked keys alike. */
  findActiveKeyOwner(hash: string): Promise<KeyOwner | undefined>;
  findMerchant(id: string): Promise<MerchantRecord | undefined>;
}
