import type { MerchantAccountKind } from './accounts';

export interface Balance {
  available: bigint;
  pendingPayout: bigint;
}

/**
 * The balance from the sums of the merchant's account postings (an account without postings sums to 0).
 * Negative sums cannot happen when every movement follows the rules; if one shows up the books are broken,
 * and that is reported as a failure rather than shown to the merchant.
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
