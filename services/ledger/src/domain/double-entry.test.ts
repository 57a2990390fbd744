import { merchantAccount, systemAccount } from './accounts';
import { assertBalanced } from './double-entry';

describe('assertBalanced', () => {
  const available = merchantAccount('available');
  const settlement = systemAccount('scheme_settlement');

  it('accepts postings that sum to zero', () => {
    expect(() =>
      assertBalanced([
        { account: settlement, amount: -100n },
        { account: available, amount: 100n },
      ]),
    ).not.toThrow();
  });

  it('refuses postings that do not sum to zero', () => {
    expect(() =>
      assertBalanced([
        { account: settlement, amount: -100n },
        { account: available, amount: 99n },
      ]),
    ).toThrow('sum to -1');
  });

  it('refuses a single posting, even a zero one, and zero postings', () => {
    expect(() => assertBalanced([{ account: available, amount: 0n }])).toThrow('two postings');
    expect(() =>
      assertBalanced([
        { account: available, amount: 0n },
        { account: settlement, amount: 0n },
      ]),
    ).toThrow('cannot be zero');
  });
});
