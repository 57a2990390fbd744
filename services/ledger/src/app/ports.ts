import type { MerchantAccountKind, SystemAccountKind } from '../domain/accounts';
import type { Adjustment, AdjustmentPlan, AdjustmentRequest } from '../domain/adjustment';
import type { Posting } from '../domain/double-entry';
import type { BalanceTransaction, BalanceTransactionType } from '../domain/balance-transaction';
import type { CollectionRange, DailyCollection } from '../domain/collections';
import type { PaymentCreditPlan } from '../domain/payment-credit';
import type { PayoutOutcome, PayoutReservationPlan } from '../domain/payout';
import type { Scope } from '@sika/platform/pure';
import type { RecentBookings } from '../domain/books-watch';
import type { TouchedBalance } from '../domain/balance-trail';

export interface RecordedCredit {
  /** False when the payment had been credited before: `movements` are then those recorded the first time. */
  created: boolean;
  movements: BalanceTransaction[];
}

export interface RecordedPayoutMovement {
  /** False when the payout had been reserved before: `movement` is then the one recorded the first time. */
  created: boolean;
  movement: BalanceTransaction;
}

export interface PayoutRelease {
  /** False when the payout had been released before: nothing was written. */
  created: boolean;
}

export interface RecordedAdjustment {
  /** False when the key had been used before: `adjustment` and `movement` are then those of the first time. */
  created: boolean;
  adjustment: Adjustment;
  movement: BalanceTransaction;
}

export interface PayableBalance {
  merchantId: string;
  available: bigint;
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
  /** Per payout: how many reservations, paid releases and reversals it has (each at most one). */
  payouts: { payoutId: string; reservations: number; releases: number; reversals: number }[];
  /** Each merchant's pending_payout, where it is not zero. */
  pendingPayouts: { merchantId: string; pendingPayout: bigint }[];
  /** The mode's adjustments: how many, and their sum (what operators added to balances, net). */
  adjustmentCount: number;
  adjustmentTotal: bigint;
  /**
   * Adjustments whose record, ledger transaction and movement do not agree (each must have one of each, of
   * the same merchant and amount); by id.
   */
  unmatchedAdjustments: string[];
  /** Accounts whose maintained balance is not the sum of their postings (none, unless the books are broken). */
  balanceMismatches: { ownerId: string; kind: string; balance: bigint; postingsTotal: bigint }[];
}

/** The ledger's writes, each once per source (a payment, a payout, an adjustment key). */
export interface BookingStore {
  /**
   * Writes the ledger transaction, its postings and the movements, atomically and once per payment id: a
   * repeat, even a concurrent one, writes nothing and returns the movements recorded first.
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
  /**
   * In one database transaction, serialized per payout and per merchant balance: the payout's movement if it
   * was reserved before; otherwise `plan` decides from the available balance read under the lock, and its
   * ledger transaction and `payout` movement are written (a plan that throws writes nothing).
   */
  reservePayout(input: {
    scope: Scope;
    payoutId: string;
    createdAt: Date;
    plan: (available: bigint) => PayoutReservationPlan;
  }): Promise<RecordedPayoutMovement>;
  /** Ends the reservation of a payout once (`resource_missing` without one); a repeat writes nothing. */
  releasePayout(input: {
    scope: Scope;
    payoutId: string;
    outcome: PayoutOutcome;
    createdAt: Date;
  }): Promise<PayoutRelease>;
  /**
   * In one database transaction, serialized per idempotency key and per merchant balance: the adjustment of
   * the key if there is one (whatever it was for); otherwise `plan` decides from the available balance read
   * under the lock, and the adjustment, its ledger transaction and its movement are written (a plan that
   * throws writes nothing).
   */
  recordAdjustment(input: {
    scope: Scope;
    request: AdjustmentRequest;
    createdAt: Date;
    plan: (available: bigint) => AdjustmentPlan;
  }): Promise<RecordedAdjustment>;
}

/** The reads of balances and movements. */
export interface BalanceStore {
  /** Merchants whose available balance in the mode is above zero, by merchant id after `after`. */
  listPayableBalances(query: { livemode: boolean; after?: string; take: number }): Promise<PayableBalance[]>;
  /** The balance of one of Sika's accounts in a mode (the sum of its postings); 0 for an account never used. */
  systemAccountTotal(livemode: boolean, kind: SystemAccountKind): Promise<bigint>;
  /**
   * The balance of each of the merchant's accounts in the mode, maintained with its postings, so read at the
   * same cost on day 1 and day 1,000 (accounts never used are absent).
   */
  merchantAccountTotals(scope: Scope): Promise<Map<MerchantAccountKind, bigint>>;
  /** The list position of a movement of this merchant and mode; undefined for any other id. */
  findCursor(scope: Scope, balanceTransactionId: string): Promise<ListCursor | undefined>;
  /** Most recent first (created_at, then insertion order). */
  listBalanceTransactions(query: BalanceTransactionQuery): Promise<BalanceTransaction[]>;
  /** Per day of the range with at least one `payment` movement, ascending. */
  dailyCollections(scope: Scope, range: CollectionRange): Promise<DailyCollection[]>;
}

export interface BooksAuditStore {
  /** The audit's reads of the books in one mode (see AuditBooks). */
  auditBooks(livemode: boolean): Promise<BooksAudit>;
}

/**
 * The watch's reads of the books, by position in the ledger's transactions (their ids only grow): what was
 * booked after a position, and how far that read went.
 */
export interface BooksWatchStore {
  /** The position of the last ledger transaction written so far; 0 when there is none. */
  lastPosition(): Promise<bigint>;
  /**
   * What up to `limit` ledger transactions after `after`, and those of the ids `gaps` that now exist, booked,
   * read in one snapshot. An account posted to is read in full unless `holdsBalance` says the watch holds its
   * balance and the round read every transaction after `after`.
   */
  bookedAfter(
    after: bigint,
    limit: number,
    gaps: readonly bigint[],
    holdsBalance: (accountId: string) => boolean,
  ): Promise<BooksWatchReading>;
}

/** One round's reading of the books: what it found, the ids read after the position (ascending), the gaps found. */
export interface BooksWatchReading {
  bookings: Omit<RecentBookings, 'wrongBalances'>;
  balances: TouchedBalance[];
  readAfter: bigint[];
  gapsFound: bigint[];
  /** It read every transaction after the position (fewer than `limit`): else a backlog remains. */
  complete: boolean;
}

/** What payments decided about payments the ledger credited (payments.FindSucceededPayments). */
export interface PaymentDecisions {
  /** Those of the ids whose payment succeeded. */
  succeeded(paymentIds: readonly string[]): Promise<Set<string>>;
}

/** What payouts decided about payouts the ledger booked (payouts.FindPayoutStatuses). */
export interface PayoutDecisions {
  /** The status of each payout payouts knows among the ids. */
  statuses(payoutIds: readonly string[]): Promise<Map<string, string>>;
}
