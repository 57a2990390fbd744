import { AppError } from '@sika/platform/pure';

import { keyDigest, readPresentedKey } from './api-key';

const KEY = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';

function codeOf(header: string | undefined): string {
  try {
    readPresentedKey(header);
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'accepted';
}

describe('readPresentedKey', () => {
  it('reads the key and the mode of its prefix', () => {
    expect(readPresentedKey(`Bearer ${KEY}`)).toEqual({ secretKey: KEY, livemode: false });
    expect(readPresentedKey('bearer  sk_live_abc')).toEqual({ secretKey: 'sk_live_abc', livemode: true });
  });

  it.each([
    [undefined, 'api_key_missing'],
    ['', 'api_key_missing'],
    ['   ', 'api_key_missing'],
    ['Bearer', 'api_key_missing'],
    [`Basic ${KEY}`, 'api_key_invalid'],
    [KEY, 'api_key_invalid'],
    ['Bearer sk_prod_abc', 'api_key_invalid'],
    ['Bearer whsec_abc', 'api_key_invalid'],
    ['Bearer sk_test_', 'api_key_invalid'],
    [`Bearer ${KEY}_x`, 'api_key_invalid'],
    [`Bearer sk_test_${'a'.repeat(129)}`, 'api_key_invalid'],
  ])('%p → %s', (header, code) => {
    expect(codeOf(header)).toBe(code);
  });

  it('never puts the key in the message', () => {
    try {
      readPresentedKey(`Bearer ${KEY}!`);
    } catch (error) {
      expect((error as Error).message).not.toContain(KEY);
    }
  });
});

describe('keyDigest', () => {
  it('names a key by its SHA-256, not by itself', () => {
    expect(keyDigest(KEY)).toMatch(/^[0-9a-f]{64}$/);
    expect(keyDigest(KEY)).not.toBe(keyDigest(`${KEY}x`));
  });
});
