import type { Selectable } from 'kysely';
import { isBalanceTransactionType, type BalanceTransaction } from '../domain/balance-transaction';
import type { DB } from '../generated/database';

/** The columns of `balance_transactions` the ledger's queries select. */
export const BALANCE_TRANSACTION_COLUMNS = [
  'id',
  'merchant_id',
  'livemode',
  'type',
  'amount',
  'currency',
  'source_id',
  'created_at',
] as const;

/** A `balance_transactions` row as the ledger's queries select it. */
export type BalanceTransactionRow = Pick<
  Selectable<DB['balance_transactions']>,
  (typeof BALANCE_TRANSACTION_COLUMNS)[number]
>;

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
