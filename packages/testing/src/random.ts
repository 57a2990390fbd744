import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Lowercase alphanumeric suffix: valid unquoted in SQL identifiers, AMQP names and Redis keys alike,
 * so one generator serves every kind of isolated name. 10 characters give ~51 bits, plenty for
 * names that live for one test run.
 */
export function randomSuffix(length = 10): string {
  const bytes = randomBytes(length);
  let suffix = '';
  for (const byte of bytes) suffix += ALPHABET[byte % ALPHABET.length];
  return suffix;
}
