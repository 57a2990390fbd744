import { balanceFromTotals } from './balance';

describe('balanceFromTotals', () => {
  it('reads each account, an unused account being 0', () => {
    expect(balanceFromTotals(new Map([['available', 9_850n]]))).toEqual({
      available: 9_850n,
      pendingPayout: 0n,
    });
    expect(balanceFromTotals(new Map())).toEqual({ available: 0n, pendingPayout: 0n });
  });

  it('refuses to present a negative balance', () => {
    expect(() => balanceFromTotals(new Map([['available', -1n]]))).toThrow('negative balance');
  });
});
