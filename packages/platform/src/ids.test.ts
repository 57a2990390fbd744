import crypto from 'node:crypto';
import { ID_PREFIXES, ID_RANDOM_LENGTH, isId, newId, randomBase62 } from './ids';

describe('newId', () => {
  it('is the prefix, an underscore and 24 alphanumeric characters', () => {
    for (const prefix of Object.values(ID_PREFIXES)) {
      expect(newId(prefix)).toMatch(new RegExp(`^${prefix}_[0-9A-Za-z]{24}$`));
    }
  });

  it('carries at least 96 bits of randomness', () => {
    expect(ID_RANDOM_LENGTH * Math.log2(62)).toBeGreaterThanOrEqual(96);
  });

  it('does not repeat over many draws', () => {
    const ids = new Set(Array.from({ length: 20_000 }, () => newId('pay')));

    expect(ids.size).toBe(20_000);
  });

  it('asks the operating system for random bytes in batches, not once per id', () => {
    const batches = jest.spyOn(crypto, 'randomFillSync');
    const single = jest.spyOn(crypto, 'randomBytes');
    try {
      for (let draw = 0; draw < 1_000; draw += 1) newId('req');
      // An id takes 24 bytes, or 48 when one of them was dropped (above 247): 1,000 ids from 4 KiB batches
      // need 6 to 12 calls, whatever the pool held before, where one call per id would be 1,000.
      expect(batches.mock.calls.length).toBeGreaterThanOrEqual(5);
      expect(batches.mock.calls.length).toBeLessThanOrEqual(12);
      expect(single).not.toHaveBeenCalled();
    } finally {
      batches.mockRestore();
      single.mockRestore();
    }
  });

  it('uses the whole alphabet, evenly enough to show no modulo bias', () => {
    const counts = new Map<string, number>();
    for (let draw = 0; draw < 5_000; draw += 1) {
      for (const character of newId('evt').slice(4)) counts.set(character, (counts.get(character) ?? 0) + 1);
    }

    // 120,000 characters over 62 symbols: about 1,935 each; a biased generator would skew the first symbols.
    expect(counts.size).toBe(62);
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(1_700);
      expect(count).toBeLessThan(2_200);
    }
  });
});

describe('randomBase62', () => {
  /** A random source that hands out the given batches in turn, recording the sizes asked for. */
  function scripted(...batches: number[][]): { random: (size: number) => Uint8Array; sizes: number[] } {
    const sizes: number[] = [];
    return {
      sizes,
      random: (size) => {
        sizes.push(size);
        return Uint8Array.from(batches.shift() ?? []);
      },
    };
  }

  it('maps each byte below 248 to the alphabet by its value modulo 62', () => {
    const { random } = scripted([0, 10, 36, 61, 62, 247]);

    expect(randomBase62(6, random)).toBe('0Aaz0z');
  });

  it('drops bytes of 248 and above (no modulo bias) and draws again until the length is reached', () => {
    const { random, sizes } = scripted([248, 5, 255], [7, 9, 11]);

    expect(randomBase62(3, random)).toBe('579');
    expect(sizes).toEqual([3, 3]);
  });
});

describe('isId', () => {
  it('recognises ids of the given kind only', () => {
    const payoutId = newId('po');

    expect(isId('po', payoutId)).toBe(true);
    expect(isId('pay', payoutId)).toBe(false);
    expect(isId('po', `${payoutId}x`)).toBe(false);
    expect(isId('po', 'po_abcdefghijklmnopqrstuv-x')).toBe(false);
    expect(isId('pay', 'pay_')).toBe(false);
  });
});

describe('ID_PREFIXES', () => {
  it('are distinct, short and lowercase', () => {
    const prefixes = Object.values(ID_PREFIXES);

    expect(new Set(prefixes).size).toBe(prefixes.length);
    for (const prefix of prefixes) expect(prefix).toMatch(/^[a-z]{2,4}$/);
  });
});
