import { isBalanceTransactionType, type BalanceTransaction } from '../domain/balance-transaction';

/** A `balance_transactions` row as the ledger's queries select it. */
export interface BalanceTransactionRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  type: string;
  amount: bigint;
  currency: string;
  source_id: string;
  created_at: Date;
}

export function toBalanceTransaction(row: BalanceTransactionRow): BalanceTransaction {
  if (!isBalanceTransactionType(row.type)) throw new Error(`unknown balance transaction type ${row.type}`);
  return {
    id: row.id,
    merchantId: row.merchant_id,
    livemode: row.livemode,
    type: row.type,
    amount: row.amount,
    currency: row.currency,
    sourceId: row.source_id,
    createdAt: row.created_at,
  };
}
