import { newId } from '@sika/platform';

import { generateSecretKey, hashSecretKey, secretKeySuffix } from '../domain/secret-key';
import type { SecretKeyRecord } from './merchant-store';

export interface IssuedSecretKey {
  /** Shown once, in the response of the operation that issued it, then forgotten. */
  secretKey: string;
  record: SecretKeyRecord;
}

/** A fresh key and the only thing stored about it. */
export function issueSecretKey(livemode: boolean, pepper: string, now: Date): IssuedSecretKey {
  const secretKey = generateSecretKey(livemode);
  return {
    secretKey,
    record: {
      id: newId('key'),
      livemode,
      hash: hashSecretKey(pepper, secretKey),
      suffix: secretKeySuffix(secretKey),
      createdAt: now,
    },
  };
}
