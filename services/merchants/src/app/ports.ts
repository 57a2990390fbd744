import type { FeeRule } from '@sika/fees';

import type { Activation, ActivationDetails } from '../domain/activation';
import type { SecretKeyRecord } from '../domain/secret-key';
import type { EmailRecord } from './email-outbox';

/** A merchant as the use cases see it. */
export interface MerchantRecord {
  id: string;
  name: string;
  feeRule: FeeRule;
  liveEnabled: boolean;
  createdAt: Date;
  /** Undefined until the merchant requests activation. */
  activation: Activation | undefined;
}

/** An active key as it may be shown: never the key nor its hash. */
export interface ActiveKey {
  livemode: boolean;
  /** The stored suffix: the key's last four characters. */
  lastFour: string;
  createdAt: Date;
  /** Set for a replaced key that still works until then. */
  expiresAt?: Date;
}

/** The owner of an active (not revoked) key. */
export interface KeyOwner {
  merchantId: string;
  livemode: boolean;
  liveEnabled: boolean;
}

/** The merchants schema, as the use cases need it (implemented in infra/). */
export interface MerchantStore {
  /** Creates the merchant and its first (test) key together: a merchant never exists without a key. */
  createWithKey(
    merchant: { id: string; name: string; createdAt: Date },
    key: SecretKeyRecord,
  ): Promise<MerchantRecord>;
  /**
   * In one transaction, with the merchant row locked: revokes the merchant's active key of `key.livemode`
   * (if any) as of `previousExpiresAt`, or of `key.createdAt` when null, and stores `key`; an older key still
   * overlapping stops at `key.createdAt`. A live key is stored only while live mode is enabled. `email`, when
   * given, is recorded in the outbox of emails in the same transaction.
   */
  replaceActiveKey(
    merchantId: string,
    key: SecretKeyRecord,
    previousExpiresAt: Date | null,
    email?: EmailRecord,
  ): Promise<'replaced' | 'missing' | 'live_disabled'>;
  /** The merchant's keys working at `now`, test first; undefined when the merchant does not exist. */
  listActiveKeys(merchantId: string, now: Date): Promise<ActiveKey[] | undefined>;
  /**
   * With the merchant row locked: stores a pending request with these details, replacing a pending one's,
   * unless the merchant's activation is already approved (then nothing changes).
   */
  requestActivation(
    merchantId: string,
    details: ActivationDetails,
    requestedAt: Date,
  ): Promise<MerchantRecord | 'missing' | 'already_approved'>;
  /**
   * With the merchant row locked: approves its pending request and enables live mode, in one transaction.
   * An approved activation is left as it is (same approval time).
   */
  approveActivation(
    merchantId: string,
    approvedAt: Date,
  ): Promise<MerchantRecord | 'missing' | 'not_requested'>;
  /** The owner of the active key with this hash; undefined for unknown and revoked keys alike. */
  findActiveKeyOwner(hash: string, now: Date): Promise<KeyOwner | undefined>;
  findMerchant(id: string): Promise<MerchantRecord | undefined>;
}
