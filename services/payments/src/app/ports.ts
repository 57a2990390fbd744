import type { FeeRule } from '@sika/fees';
import type { Clock, IdempotencyKeyStore, Logger } from '@sika/platform';
import type { AttemptOutcome } from '../domain/attempt';
import type { Outcome } from '../domain/lifecycle';
import type { Attempt, Payment, PaymentStatus, RefundStatus } from '../domain/payment';
import type { Scope } from '@sika/platform/pure';

export type { Scope };

/** What the use cases need from the other services; implemented over gRPC in infra/peers.ts. */

/** What a new payment takes from its merchant: the fee rule and the name, as they are now. */
export interface MerchantProfile {
  feeRule: FeeRule;
  name: string;
}

export interface MerchantDirectory {
  /** The merchant's current fee rule and name (merchants.GetMerchant). */
  profileOf(merchantId: string): Promise<MerchantProfile>;
}

export interface PaymentRequest {
  livemode: boolean;
  txId: string;
  /** Clear, normalised: only psp-connector ever receives it. */
  payerAlias: string;
  amount: bigint;
  /** Shown to the payer by their bank: the payment's description. */
  reason: string | null;
  reference: string | null;
  /** The payment's deadline: psp-connector never lets the payer's bank take money after it. */
  expiresAt: Date;
  /** The payer accepts now and pays at delivery. */
  onDelivery: boolean;
}

/** psp-connector's answer, its reason codes already classified. */
export type PaymentRequestReply =
  { outcome: 'sent' } | { outcome: 'rejected' | 'alias_unknown' | 'failed'; reasonCode: string | null };

export interface PaymentRequestSender {
  /** psp-connector SendPaymentRequest: idempotent on tx_id, so sending again is always safe. */
  send(request: PaymentRequest): Promise<PaymentRequestReply>;
}

/** The scheme's answer about one attempt (psp.payment_request.updated), as the use cases read it. */
export interface SchemeUpdate {
  livemode: boolean;
  txId: string;
  outcome: AttemptOutcome;
  /** The payment reached another account than Sika's payee alias. */
  payeeMismatch: boolean;
  /** The trace of the message that brought it: the events its outcome writes join it (see recordAll). */
  traceHeaders?: Readonly<Record<string, string>>;
}

/** One payment's outcome for PaymentStore.recordAll. */
export interface OutcomeRecord {
  before: Payment;
  outcome: Outcome;
  /** The trace of the message that decided it, which its events join; else the active context's. */
  traceHeaders?: Readonly<Record<string, string>>;
}

export interface PaymentsAudit {
  succeededPaymentIds: string[];
  /**
   * Transfers whose money goes back (duplicates, second transfers, payments after closure or the deadline,
   * wrong amounts or payees), and attempts that should owe one but record none (both null).
   */
  owedRefunds: {
    paymentId: string;
    txId: string;
    endToEndId: string | null;
    refundStatus: RefundStatus | null;
  }[];
  /** The message id of every payment event still in the outbox (every mode). */
  paymentEventMessageIds: string[];
}

/** psp-connector's news of a fund return (psp.fund_return.updated). */
export interface FundReturnNews {
  livemode: boolean;
  txId: string;
  /** The transfer returned. */
  endToEndId: string;
  result: 'sent' | 'abandoned';
  amount: bigint;
  reasonCode: string | null;
}

/**
 * An open database transaction, or the pool for reads outside one. Opaque to the use cases: they only hand
 * it to the stores below, whose SQL implementations (infra/) know what it is.
 */
export type Transaction = object;

export interface UnitOfWork {
  /** Runs `work` in one transaction: it commits when `work` resolves and rolls back when it throws. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** For reads outside a transaction. */
  readonly reader: Transaction;
}

export interface PaymentListQuery {
  scope: Scope;
  limit: number;
  /** The last payment of the previous page, already resolved in the same scope. */
  after: { id: string; createdAt: Date } | null;
  status: PaymentStatus | null;
  reference: string | null;
  createdFrom: Date | null;
  createdTo: Date | null;
}

/**
 * Payments and their attempts. Changes happen under a row lock on the payment (lock* methods, inside a
 * transaction), so concurrent updates of one payment apply one after the other on the latest state.
 */
/** A payment as this process committed it, and the version of its row that commit wrote. */
export interface CommittedPayment {
  payment: Payment;
  version: string;
}

export interface PaymentStore {
  /** Returns the version written. */
  insert(tx: Transaction, payment: Payment): Promise<string>;
  /** insert, by a statement that commits by itself (with other inserts, maybe): the version written. */
  insertAlone(payment: Payment): Promise<string>;
  findById(reader: Transaction, id: string): Promise<Payment | null>;
  findInScope(reader: Transaction, scope: Scope, id: string): Promise<Payment | null>;
  lockById(tx: Transaction, id: string): Promise<Payment | null>;
  lockInScope(tx: Transaction, scope: Scope, id: string): Promise<Payment | null>;
  /** The payment owning the attempt with this id. */
  findByAttemptId(reader: Transaction, attemptId: string): Promise<Payment | null>;
  /**
   * The payment owning the attempt with this tx_id, locked, and the attempt. News about a tx_id this service
   * never issued throws, so its message is retried and then dead-lettered rather than dropped.
   */
  lockByTxId(tx: Transaction, txId: string): Promise<{ payment: Payment; attempt: Attempt }>;
  /** lockByTxId of many attempts: each tx_id's, in order. */
  lockByTxIds(tx: Transaction, txIds: readonly string[]): Promise<{ payment: Payment; attempt: Attempt }[]>;
  /**
   * Writes what changed between `before` and `after` (the same payment): its fields, its attempts. Returns
   * the version written.
   */
  save(tx: Transaction, before: Payment, after: Payment): Promise<string>;
  /** Saves the payment's new state and writes one event per status change to the outbox, in `tx`. */
  record(tx: Transaction, before: Payment, outcome: Outcome, now: Date): Promise<void>;
  /** record of many payments, each once, in one statement. */
  recordAll(tx: Transaction, records: readonly OutcomeRecord[], now: Date): Promise<void>;
  /**
   * record, without a lock or a transaction, applied only if the payment is still as `committed` has it
   * (the outcome computed from it); false, with nothing written, if it changed since.
   */
  recordIfUnchanged(committed: CommittedPayment, outcome: Outcome, now: Date): Promise<boolean>;
  list(reader: Transaction, query: PaymentListQuery): Promise<{ payments: Payment[]; hasMore: boolean }>;
  /** The audit's reads in one mode (see AuditPayments). */
  audit(reader: Transaction, livemode: boolean): Promise<PaymentsAudit>;
  /** Those of the ids whose payment succeeded, in any mode. */
  findSucceeded(reader: Transaction, paymentIds: readonly string[]): Promise<string[]>;
  /** Deletes the payment and its attempts, in `tx` (a creation refused for an unknown alias). */
  delete(tx: Transaction, id: string): Promise<void>;
  /** Moves the payment's deadline (a test helper's expiry now), in `tx`, before the expiry is recorded. */
  moveDeadline(tx: Transaction, id: string, expiresAt: Date): Promise<void>;
  /** Payments past their deadline (after `since`, null: any time) and not final, locked for `tx`. */
  lockExpired(tx: Transaction, now: Date, since: Date | null, limit: number): Promise<Payment[]>;
  /** Attempts whose send is due, leased until `leaseUntil`: their ids. */
  claimDueAttempts(reader: Transaction, now: Date, leaseUntil: Date, limit: number): Promise<string[]>;
  /**
   * Erases the alias (the masked form stays) of up to `limit` attempts whose payment is final and unchanged
   * since `finalBefore`; returns how many.
   */
  erasePayerAliases(reader: Transaction, finalBefore: Date, limit: number): Promise<number>;
}

/** What every use case works with. */
export interface UseCaseContext {
  db: UnitOfWork;
  payments: PaymentStore;
  idempotencyKeys: IdempotencyKeyStore;
  clock: Clock;
  logger: Logger;
  /** Called after a transaction that wrote events committed, so the outbox relay publishes them at once. */
  eventsCommitted(): void;
}
