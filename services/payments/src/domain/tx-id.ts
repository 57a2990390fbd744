import { randomBytes } from 'node:crypto';

/** PI-SPI's limit on a request's txId (API Business: maxLength 35). */
export const TX_ID_MAX_LENGTH = 35;
/** Says whose request it is when the id shows up in a bank's back office. */
export const TX_ID_PREFIX = 'SIKA';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Bytes at or above 248 (= 4 × 62) are dropped so that `byte % 62` stays uniform. */
const UNBIASED_BYTE_LIMIT = 248;
const TX_ID_FORMAT = new RegExp(`^[A-Za-z0-9]{1,${TX_ID_MAX_LENGTH}}$`);

export type RandomBytes = (size: number) => Uint8Array;

/**
 * `SIKA` + 31 base62 characters (≈184 random bits): alphanumeric only, exactly 35 characters. Uniqueness
 * also rests on the unique index on payment_attempts.tx_id.
 */
export function newTxId(random: RandomBytes = randomBytes): string {
  const length = TX_ID_MAX_LENGTH - TX_ID_PREFIX.length;
  let body = '';
  while (body.length < length) {
    for (const byte of random(length)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      body += BASE62[byte % 62];
      if (body.length === length) break;
    }
  }
  return TX_ID_PREFIX + body;
}

export function isValidTxId(value: string): boolean {
  return TX_ID_FORMAT.test(value);
}
