import type { RecentBookings } from './books-watch';

/** A merchant account that a round of the books watch saw posted to, read in the round's one snapshot. */
export interface TouchedBalance {
  accountId: string;
  merchantId: string;
  livemode: boolean;
  kind: string;
  /** The balance the ledger keeps. */
  balance: bigint;
  /** What the round's ledger transactions posted to it. */
  posted: bigint;
  /** The sum of all its postings: read only for an account the trail does not hold, or in a partial round. */
  postingsTotal?: bigint;
}

/**
 * The balance of each merchant account as the books watch last checked it, so that a round checks a balance
 * against the postings it read, not against the account's whole history (whose sum grows with it). An account
 * first seen, or seen in a round that could not read everything new, is checked against all its postings.
 */
export class BalanceTrail {
  /** Account id → its balance at the last round that saw it; the least recently seen first. */
  private readonly balances = new Map<string, bigint>();

  constructor(private readonly maxAccounts: number) {}

  holds(accountId: string): boolean {
    return this.balances.has(accountId);
  }

  /** The accounts whose balance is negative, or is not what their postings make it. */
  check(touched: readonly TouchedBalance[]): RecentBookings['wrongBalances'] {
    const wrong: RecentBookings['wrongBalances'] = [];
    for (const account of touched) {
      const previous = this.balances.get(account.accountId);
      const expected =
        account.postingsTotal ?? (previous === undefined ? undefined : previous + account.posted);
      if (expected === undefined) {
        throw new Error(`account ${account.accountId} is neither held nor read in full`);
      }
      if (account.balance < 0n || account.balance !== expected) {
        const { merchantId, livemode, kind, balance } = account;
        wrong.push({ merchantId, livemode, kind, balance, postingsTotal: expected });
      }
    }
    return wrong;
  }

  /**
   * Remembers the balances of a round that went through (one that failed is read again, and its postings must
   * not count twice). `complete`: the round read every transaction committed after the previous one, so the
   * balances it read are the previous ones plus what it read; otherwise the trail starts again.
   */
  record(touched: readonly TouchedBalance[], complete: boolean): void {
    if (!complete) {
      this.balances.clear();
      return;
    }
    for (const { accountId, balance } of touched) {
      this.balances.delete(accountId);
      this.balances.set(accountId, balance);
    }
    for (const accountId of this.balances.keys()) {
      if (this.balances.size <= this.maxAccounts) break;
      this.balances.delete(accountId);
    }
  }
}
