import { randomBase62 } from '@sika/platform/pure';
import type { RandomBytes } from '@sika/platform/pure';

/** PI-SPI's limit on a transaction's txId (API Business: maxLength 35, unique per participant). */
export const TX_ID_MAX_LENGTH = 35;
/** Says whose transaction it is when the id shows up in a bank's back office. */
export const TX_ID_PREFIX = 'SIKA';

const TX_ID_FORMAT = new RegExp(`^[A-Za-z0-9]{1,${TX_ID_MAX_LENGTH}}$`);

/**
 * `SIKA` + 31 base62 characters (≈184 random bits): alphanumeric only, exactly 35 characters. The txId of
 * every transaction Sika starts at the scheme (request-to-pay, payout); uniqueness also rests on the unique
 * index of the table that records it.
 */
export function newTxId(random?: RandomBytes): string {
  return TX_ID_PREFIX + randomBase62(TX_ID_MAX_LENGTH - TX_ID_PREFIX.length, random);
}

/** Whether a txId has the scheme's format (a message naming another one is not ours to act on). */
export function isValidTxId(value: string): boolean {
  return TX_ID_FORMAT.test(value);
}
