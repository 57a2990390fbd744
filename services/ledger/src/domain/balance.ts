import type { MerchantAccountKind } from './accounts';

export interface Balance {
  available: bigint;
  pendingPayout: bigint;
}

/**
 * The balance from the merchant's account balances (an account never used is 0). The database refuses a
 * negative merchant balance, and the writers refuse first what would make one; if one shows up the books are
 * broken, and that is reported as a failure rather than shown to the merchant.
 */
export function balanceFromTotals(totals: ReadonlyMap<MerchantAccountKind, bigint>): Balance {
  const available = totals.get('available') ?? 0n;
  const pendingPayout = totals.get('pending_payout') ?? 0n;
  if (available < 0n || pendingPayout < 0n) {
    throw new Error(
      `negative balance in the ledger: available ${available}, pending_payout ${pendingPayout}`,
    );
  }
  return { available, pendingPayout };
}
