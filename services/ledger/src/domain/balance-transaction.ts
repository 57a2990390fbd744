/** The movement types of spec §2.4. */
export const BALANCE_TRANSACTION_TYPES = [
  'payment',
  'fee',
  'payout',
  'payout_reversal',
  'adjustment',
] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

export const CURRENCY = 'XOF';

/** A movement of a merchant's balance as the merchant sees it; the amount is signed. */
export interface BalanceTransaction {
  id: string;
  merchantId: string;
  livemode: boolean;
  type: BalanceTransactionType;
  amount: bigint;
  currency: string;
  sourceId: string;
  createdAt: Date;
}

export function isBalanceTransactionType(value: string): value is BalanceTransactionType {
  return (BALANCE_TRANSACTION_TYPES as readonly string[]).includes(value);
}
