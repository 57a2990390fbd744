import { createHmac } from 'node:crypto';

import {
  generateSecretKey,
  hashSecretKey,
  SECRET_KEY_RANDOM_LENGTH,
  secretKeyMode,
  secretKeySuffix,
} from './secret-key';

const PEPPER = 'a-pepper-of-at-least-thirty-two-characters';

describe('generateSecretKey', () => {
  it('makes sk_test_ and sk_live_ keys of 32 base62 characters', () => {
    expect(generateSecretKey(false)).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(generateSecretKey(true)).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
  });

  it('carries at least 190 bits of entropy', () => {
    expect(SECRET_KEY_RANDOM_LENGTH * Math.log2(62)).toBeGreaterThanOrEqual(190);
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 1_000 }, () => generateSecretKey(false)));
    expect(keys.size).toBe(1_000);
  });

  it('drops bytes that would bias the alphabet instead of wrapping them', () => {
    // 248 … 255 would map to 0 … 7 again with a plain modulo: they must be skipped.
    const biased = Buffer.from([248, 255, 250]);
    let call = 0;
    const key = generateSecretKey(false, (size) => (call++ === 0 ? biased : Buffer.alloc(size, 61)));
    expect(key).toBe(`sk_test_${'z'.repeat(32)}`);
  });

  it('uses every base62 character', () => {
    const seen = new Set<string>();
    for (let index = 0; index < 200; index += 1) {
      for (const character of generateSecretKey(true).slice('sk_live_'.length)) seen.add(character);
    }
    expect(seen.size).toBe(62);
  });
});

describe('secretKeyMode', () => {
  it('reads the mode from the prefix', () => {
    expect(secretKeyMode(generateSecretKey(false))).toEqual({ livemode: false });
    expect(secretKeyMode(generateSecretKey(true))).toEqual({ livemode: true });
  });

  it.each([
    '',
    'sk_test_',
    `sk_test_${'a'.repeat(31)}`,
    `sk_test_${'a'.repeat(33)}`,
    `sk_prod_${'a'.repeat(32)}`,
    `pk_test_${'a'.repeat(32)}`,
    `SK_TEST_${'a'.repeat(32)}`,
    `sk_test_${'a'.repeat(31)}-`,
    ` sk_test_${'a'.repeat(32)}`,
    `sk_test_${'a'.repeat(32)}\n`,
    `whsec_${'a'.repeat(32)}`,
  ])('rejects the malformed key %j', (key) => {
    expect(secretKeyMode(key)).toBeUndefined();
  });
});

describe('hashSecretKey', () => {
  const key = `sk_test_${'A1'.repeat(16)}`;

  it('is the hex HMAC-SHA256 of the key under the pepper', () => {
    expect(hashSecretKey(PEPPER, key)).toBe(createHmac('sha256', PEPPER).update(key).digest('hex'));
    expect(hashSecretKey(PEPPER, key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with the pepper and with the mode prefix', () => {
    expect(hashSecretKey(`${PEPPER}!`, key)).not.toBe(hashSecretKey(PEPPER, key));
    expect(hashSecretKey(PEPPER, key.replace('sk_test_', 'sk_live_'))).not.toBe(hashSecretKey(PEPPER, key));
  });

  it('does not contain the key', () => {
    expect(hashSecretKey(PEPPER, key)).not.toContain(key.slice('sk_test_'.length, 20));
  });
});

describe('secretKeySuffix', () => {
  it('keeps the last four characters', () => {
    expect(secretKeySuffix(`sk_live_${'x'.repeat(28)}Ab9Z`)).toBe('Ab9Z');
  });
});
