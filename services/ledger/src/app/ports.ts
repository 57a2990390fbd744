import type { MerchantAccountKind, SystemAccountKind } from '../domain/accounts';
import type { Posting } from '../domain/double-entry';
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

export interface BooksAudit {
  unbalancedTransactions: string[];
  merchantsOutOfBalance: string[];
  creditedPayments: { paymentId: string; paymentMovements: number; feeMovements: number }[];
  refundsPayable: bigint;
}

export interface LedgerRepository {
  /** The audit's reads of the books in one mode (see AuditBooks). */
  auditBooks(livemode: boolean): Promise<BooksAudit>;
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
  /**
   * A ledger transaction between accounts with no merchant-facing movement, once per (sourceId, kind): false
   * when it was recorded before (then nothing is written).
   */
  recordSystemTransfer(input: {
    scope: Scope;
    kind: string;
    sourceId: string;
    postings: Posting[];
    createdAt: Date;
  }): Promise<boolean>;
  /** The sum of the postings of one of Sika's accounts in a mode; 0 for an account never used. */
  systemAccountTotal(livemode: boolean, kind: SystemAccountKind): Promise<bigint>;
  /** The sum of the postings of each of the merchant's accounts in the mode (accounts never used are absent). */
  merchantAccountTotals(scope: Scope): Promise<Map<MerchantAccountKind, bigint>>;
  /** The list position of a movement of this merchant and mode; undefined for any other id. */
  findCursor(scope: Scope, balanceTransactionId: string): Promise<ListCursor | undefined>;
  /** Most recent first (created_at, then insertion order). */
  listBalanceTransactions(query: BalanceTransactionQuery): Promise<BalanceTransaction[]>;
}
