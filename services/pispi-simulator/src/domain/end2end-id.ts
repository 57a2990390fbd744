import { randomInt } from 'node:crypto';

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Stands for the participant code in the end-to-end ids the simulator makes. */
const PARTICIPANT = 'CISIM1';

/**
 * An end-to-end id in the document's shape (`ESNB00120230221153001KXvozkpNvhUk9a`, 35 characters): `E`, the
 * participant code, the UTC time to the second, then random letters and digits.
 */
export function newEnd2EndId(at: Date): string {
  const timestamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  let random = '';
  while (random.length < 14) random += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return `E${PARTICIPANT}${timestamp}${random}`;
}
