import { newId } from '@sika/platform';
import { issueSecretKey } from '../domain/secret-key';
import type { Clock } from '@sika/platform';

import type { MerchantRecord, MerchantStore } from './ports';

export interface CreateMerchantResult {
  merchant: MerchantRecord;
  /** The merchant's first key, for test mode; live keys wait for the approval of its activation. */
  testSecretKey: string;
}

export class CreateMerchant {
  constructor(private readonly dependencies: { store: MerchantStore; pepper: string; clock: Clock }) {}

  async execute({ name }: { name: string }): Promise<CreateMerchantResult> {
    const { store, pepper, clock } = this.dependencies;
    const now = clock.now();
    const { secretKey, record } = issueSecretKey(false, pepper, now);
    const merchant = await store.createWithKey({ id: newId('mer'), name, createdAt: now }, record);
    return { merchant, testSecretKey: secretKey };
  }
}
