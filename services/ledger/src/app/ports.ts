import type { MerchantAccountKind } from '../domain/accounts';
import type { BalanceTransaction, BalanceTransactionType } from '../domain/balance-transaction';
import type { PaymentCreditPlan } from '../domain/payment-credit';
import type { Scope } from '../domain/scope';

export interface RecordedCredit {
  /** False when the payment had been credited before: `movements` are then those recorded the first time. */
  created: boolean;
  movements: BalanceTransaction[];
}

/** Where a page of movements resumes: the position of the last movement of the previous page. */
export interface ListCursor {
  createdAt: Date;
  seq: bigint;
}

export interface BalanceTransactionQuery {
  scope: Scope;
  /** Rows to return at most. */
  take: number;
  after?: ListCursor;
  type?: BalanceTransactionType;
  /** Inclusive. */
  createdFrom?: Date;
  /** Exclusive. */
  createdTo?: Date;
}

export interface LedgerRepository {
  /**
   * In one database transaction, serialized per payment id: returns the movements already recorded for the
   * payment if there are any, otherwise writes the ledger transaction, its postings and the movements.
   */
  recordPaymentCredit(input: {
    scope: Scope;
    paymentId: string;
    plan: PaymentCreditPlan;
    createdAt: Date;
  }): Promise<RecordedCredit>;
  /** The sum of the postings of each of the merchant's accounts in the mode (accounts never used are absent). */
  merchantAccountTotals(scope: Scope): Promise<Map<MerchantAccountKind, bigint>>;
  /** The list position of a movement of this merchant and mode; undefined for any other id. */
  findCursor(scope: Scope, balanceTransactionId: string): Promise<ListCursor | undefined>;
  /** Most recent first (created_at, then insertion order). */
  listBalanceTransactions(query: BalanceTransactionQuery): Promise<BalanceTransaction[]>;
}
