import { randomBase62 } from '@sika/platform';
import type { RandomBytes } from '@sika/platform';

/** PI-SPI's limit on a request's txId (API Business: maxLength 35). */
export const TX_ID_MAX_LENGTH = 35;
/** Says whose request it is when the id shows up in a bank's back office. */
export const TX_ID_PREFIX = 'SIKA';

const TX_ID_FORMAT = new RegExp(`^[A-Za-z0-9]{1,${TX_ID_MAX_LENGTH}}$`);

/**
 * `SIKA` + 31 base62 characters (≈184 random bits): alphanumeric only, exactly 35 characters. Uniqueness
 * also rests on the unique index on payment_attempts.tx_id.
 */
export function newTxId(random?: RandomBytes): string {
  return TX_ID_PREFIX + randomBase62(TX_ID_MAX_LENGTH - TX_ID_PREFIX.length, random);
}

export function isValidTxId(value: string): boolean {
  return TX_ID_FORMAT.test(value);
}
