import { BalanceTrail, type TouchedBalance } from './balance-trail';

const account = (
  accountId: string,
  balance: bigint,
  posted: bigint,
  postingsTotal?: bigint,
): TouchedBalance => ({
  accountId,
  merchantId: `mer_${accountId}`,
  livemode: false,
  kind: 'available',
  balance,
  posted,
  ...(postingsTotal !== undefined && { postingsTotal }),
});

describe('BalanceTrail', () => {
  it('checks an account first seen against all its postings, then against what each round posted', () => {
    const trail = new BalanceTrail(10);
    expect(trail.holds('1')).toBe(false);
    const first = [account('1', 500n, 200n, 500n)];
    expect(trail.check(first)).toEqual([]);
    expect(trail.holds('1')).toBe(false);
    trail.record(first, true);
    expect(trail.holds('1')).toBe(true);

    const second = [account('1', 800n, 300n)];
    expect(trail.check(second)).toEqual([]);
    trail.record(second, true);
    // 800 held, 100 posted since: a balance of 950 has 50 no posting explains.
    expect(trail.check([account('1', 950n, 100n)])).toEqual([
      { merchantId: 'mer_1', livemode: false, kind: 'available', balance: 950n, postingsTotal: 900n },
    ]);
  });

  it('reports a balance that does not match all its postings, or is negative', () => {
    const trail = new BalanceTrail(10);
    expect(trail.check([account('1', 500n, 500n, 400n), account('2', -5n, -5n, -5n)])).toEqual([
      { merchantId: 'mer_1', livemode: false, kind: 'available', balance: 500n, postingsTotal: 400n },
      { merchantId: 'mer_2', livemode: false, kind: 'available', balance: -5n, postingsTotal: -5n },
    ]);
  });

  it('remembers a round only once recorded, and starts again after one that did not read everything new', () => {
    const trail = new BalanceTrail(10);
    trail.record([account('1', 500n, 500n, 500n), account('2', 100n, 100n, 100n)], true);

    trail.record([account('1', 700n, 100n, 700n)], false);
    expect(trail.holds('1')).toBe(false);
    expect(trail.holds('2')).toBe(false);
  });

  it('holds at most maxAccounts balances, forgetting the least recently seen', () => {
    const trail = new BalanceTrail(2);
    trail.record([account('1', 1n, 1n, 1n), account('2', 2n, 2n, 2n)], true);
    trail.record([account('1', 3n, 2n)], true);
    trail.record([account('3', 3n, 3n, 3n)], true);

    expect([trail.holds('1'), trail.holds('2'), trail.holds('3')]).toEqual([true, false, true]);
  });

  it('refuses an account it neither holds nor was given in full: the store must read it whole', () => {
    expect(() => new BalanceTrail(2).check([account('9', 1n, 1n)])).toThrow(/account 9/);
  });
});
