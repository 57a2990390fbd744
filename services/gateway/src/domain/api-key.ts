import { createHash } from 'node:crypto';

import { AppError } from '@sika/platform/pure';

/** What the bearer token looks like (spec §5): the prefix decides the mode; the rest is checked by merchants. */
const SECRET_KEY_FORMAT = /^sk_(test|live)_[0-9A-Za-z]{1,128}$/;

export interface PresentedKey {
  secretKey: string;
  /** From the prefix; merchants' answer must agree. */
  livemode: boolean;
}

const BEARER = /^Bearer(?:[ \t]+(\S+))?$/i;

/**
 * Reads `Authorization: Bearer <key>`. No header (or an empty token) is api_key_missing; another scheme or a
 * token that is not shaped like a secret key is api_key_invalid, without asking merchants. The key is never
 * echoed in messages: an error body may end up in a log.
 */
export function readPresentedKey(authorization: string | undefined): PresentedKey {
  const header = authorization?.trim() ?? '';
  if (header === '') {
    throw new AppError('api_key_missing', 'No API key provided. Send Authorization: Bearer <secret key>.');
  }
  const bearer = BEARER.exec(header);
  if (bearer === null) {
    throw new AppError('api_key_invalid', 'Send the secret key as Authorization: Bearer <secret key>.');
  }
  const token = bearer[1];
  if (token === undefined) {
    throw new AppError('api_key_missing', 'No API key provided. Send Authorization: Bearer <secret key>.');
  }
  const match = SECRET_KEY_FORMAT.exec(token);
  if (match === null) throw invalidKey();
  return { secretKey: token, livemode: match[1] === 'live' };
}

export function invalidKey(): AppError {
  return new AppError('api_key_invalid', 'Invalid API key provided.');
}

/** Names a key in Redis without storing it: the hex SHA-256 of the key (high-entropy, so no salt needed). */
export function keyDigest(secretKey: string): string {
  return createHash('sha256').update(secretKey).digest('hex');
}
