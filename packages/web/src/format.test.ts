import { formatXof } from './format';

const NNBSP = '\u202f';
const NBSP = '\u00a0';

describe('formatXof', () => {
  it.each([
    [0n, `0${NBSP}FCFA`],
    [1n, `1${NBSP}FCFA`],
    [999n, `999${NBSP}FCFA`],
    [1_000n, `1${NNBSP}000${NBSP}FCFA`],
    [10_000n, `10${NNBSP}000${NBSP}FCFA`],
    [123_456n, `123${NNBSP}456${NBSP}FCFA`],
    [1_234_567n, `1${NNBSP}234${NNBSP}567${NBSP}FCFA`],
    [-25_000n, `-25${NNBSP}000${NBSP}FCFA`],
  ])('writes %s as %j', (amount, expected) => {
    expect(formatXof(amount)).toBe(expected);
  });

  it('keeps every digit of amounts beyond 2^53', () => {
    expect(formatXof(9_007_199_254_740_993n)).toBe(
      ['9', '007', '199', '254', '740', '993'].join(NNBSP) + `${NBSP}FCFA`,
    );
  });
});
