import { createHmac } from 'node:crypto';

import { newId, randomBase62 } from '@sika/platform/pure';
import type { RandomBytes } from '@sika/platform/pure';

/**
 * Secret keys (spec §5): the prefix decides the mode, the rest is 32 base62 characters drawn from the
 * operating system's CSPRNG, 32 × log2(62) ≈ 190.5 bits. The server keeps only HMAC-SHA256(pepper, key): a
 * stolen copy of the database neither reveals keys nor lets anyone test guesses offline without the pepper,
 * and a key that high in entropy needs no slow hash.
 */
export const SECRET_KEY_PREFIXES = { test: 'sk_test_', live: 'sk_live_' } as const;
export const SECRET_KEY_RANDOM_LENGTH = 32;
/** Characters kept in clear (the key's last ones) so operators can tell keys apart. */
export const SECRET_KEY_SUFFIX_LENGTH = 4;

const SECRET_KEY_FORMAT = new RegExp(`^sk_(test|live)_[0-9A-Za-z]{${SECRET_KEY_RANDOM_LENGTH}}$`);

export function generateSecretKey(livemode: boolean, random?: RandomBytes): string {
  const prefix = livemode ? SECRET_KEY_PREFIXES.live : SECRET_KEY_PREFIXES.test;
  return prefix + randomBase62(SECRET_KEY_RANDOM_LENGTH, random);
}

/** The mode a well-formed key belongs to, or undefined for anything that is not a Sika secret key. */
export function secretKeyMode(key: string): { livemode: boolean } | undefined {
  const match = SECRET_KEY_FORMAT.exec(key);
  return match ? { livemode: match[1] === 'live' } : undefined;
}

/** Lowercase hex HMAC-SHA256 of the whole key (prefix included) under the server's pepper. */
export function hashSecretKey(pepper: string, key: string): string {
  return createHmac('sha256', pepper).update(key, 'utf8').digest('hex');
}

export function secretKeySuffix(key: string): string {
  return key.slice(-SECRET_KEY_SUFFIX_LENGTH);
}

/** What is stored of a secret key: never the key itself. */
export interface SecretKeyRecord {
  id: string;
  livemode: boolean;
  /** HMAC-SHA256(pepper, key), lowercase hex. */
  hash: string;
  suffix: string;
  createdAt: Date;
}

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
