import type { PispiClient } from '@sika/pispi';

import type { Mode } from '../domain/mode';
import type { FundReturnState, FundReturnStep } from '../domain/fund-return';
import type { PayerDecision, PaymentRequestUpdate, RequestOutcome } from '../domain/payment-request';
import type { TransferState, TransferStatus, TransferStep } from '../domain/payout-transfer';

/** A mode's participant: its API client and Sika's account alias there. */
export interface Participant {
  client: PispiClient;
  payeeAlias: string;
}

/** The configured schemes; live is absent until its configuration is given. */
export type ParticipantDirectory = Readonly<Partial<Record<Mode, Participant>>>;

export interface NewPaymentRequest {
  txId: string;
  livemode: boolean;
  amount: bigint;
  fingerprint: string;
  payerAliasMasked: string;
  /** An invoice for a payment on delivery, whose status is read until `watchUntil`. */
  onDelivery: boolean;
  watchUntil: Date | null;
  at: Date;
}

/** An invoice whose payer has not decided yet, as the watcher reads it. */
export interface WatchedInvoice {
  txId: string;
  livemode: boolean;
}

export interface StoredPaymentRequest {
  txId: string;
  fingerprint: string;
  outcome: RequestOutcome | null;
}

export interface PaymentRequestStore {
  /** Records the request unless its txId is known; either way returns what is stored. */
  recordIfAbsent(request: NewPaymentRequest): Promise<{ created: boolean; stored: StoredPaymentRequest }>;
  /** Sets the outcome unless one is recorded already, and returns the recorded one (the first wins). */
  recordOutcome(
    txId: string,
    outcome: RequestOutcome,
    end2endId: string | undefined,
    at: Date,
  ): Promise<RequestOutcome>;
  /** Sent invoices without a decision, before their deadline, the least recently read first. */
  invoicesToWatch(now: Date, limit: number): Promise<WatchedInvoice[]>;
  markChecked(txId: string, at: Date): Promise<void>;
}

export interface PispiWebhookRow {
  mode: Mode;
  webhookId: string;
  callbackUrl: string;
  secret: string;
  registeredAt: Date;
}

/**
 * What sealing a mode's stored secret did: `sealed` a clear one, `resealed` one sealed by a previous key;
 * nothing for one `current` already, or an `absent` registration.
 */
export type SecretSealing = 'sealed' | 'resealed' | 'current' | 'absent';

/** The stored registrations; the secret is clear in a row, sealed in the database. */
export interface PispiWebhookAccess {
  /** Throws when the secret is sealed with a key that is not configured. */
  find(mode: Mode): Promise<PispiWebhookRow | null>;
  save(row: PispiWebhookRow): Promise<void>;
  /** Seals the mode's secret with the current key, unless it is so already. */
  reseal(mode: Mode): Promise<SecretSealing>;
}

export interface PispiWebhookStore extends PispiWebhookAccess {
  /** Runs `work` while holding a lock on the mode's registration, so replicas starting together agree. */
  withRegistrationLock<T>(mode: Mode, work: (access: PispiWebhookAccess) => Promise<T>): Promise<T>;
}

/** One received callback event, as recorded. */
export interface CallbackEventReceipt {
  mode: Mode;
  evCode: string;
  end2endId: string;
  /** Set for fund return events (their date), which a return sent again repeats with code and id. */
  occurrence: string;
  txId: string;
  event: unknown;
  /** `applied`: it changed our records without news for payments (a return rejected, to send again). */
  effect: 'published' | 'applied' | 'stale' | 'ignored' | 'unmatched';
  receivedAt: Date;
}

/** A fund return, as a transaction that changes it reads it. */
export interface LockedFundReturn {
  livemode: boolean;
  /** The transfer returned: what names the return. */
  end2endId: string;
  /** The attempt the money arrived on. */
  txId: string;
  state: FundReturnState;
}

/** What one callback transaction can do. */
export interface CallbackUnit {
  /** The request's current decision, locked until the transaction ends; null when there is no such request. */
  lockRequest(mode: Mode, txId: string): Promise<{ decision: PayerDecision | null } | null>;
  /** False when this event was recorded before (a redelivery): then nothing else must happen for it. */
  recordEvent(receipt: CallbackEventReceipt): Promise<boolean>;
  recordDecision(
    txId: string,
    decision: PayerDecision,
    reasonCode: string | undefined,
    paymentEnd2endId: string | undefined,
    at: Date,
  ): Promise<void>;
  /** Writes psp.payment_request.updated to the outbox. */
  publish(update: PaymentRequestUpdate): Promise<void>;
  /** A payout's transfer (txId = payout id), locked; null when payouts never asked for it. */
  lockTransfer(mode: Mode, payoutId: string): Promise<LockedTransfer | null>;
  recordTransferStep: TransferUnit['recordStep'];
  /** The fund return of the payment with this end-to-end id, locked; null when Sika asked for none. */
  lockFundReturn(mode: Mode, end2endId: string): Promise<LockedFundReturn | null>;
  /** Records a step of the return (its reason, if a rejection); the outcome, if any, goes out with it. */
  recordFundReturnStep(
    fundReturn: LockedFundReturn,
    step: FundReturnStep,
    reasonCode: string | undefined,
    at: Date,
  ): Promise<void>;
}

/** A payout's transfer, as a transaction that changes it reads it. */
export interface LockedTransfer {
  payoutId: string;
  livemode: boolean;
  state: TransferState;
}

/** A transfer claimed for sending or reading back. */
export interface DueTransfer {
  payoutId: string;
  livemode: boolean;
  status: TransferStatus;
  payeeAlias: string;
  amount: bigint;
  reason: string;
  /** The payout's trace context (W3C headers), which its sends continue. */
  traceContext: Readonly<Record<string, string>>;
}

/** What one transfer transaction can do. */
export interface TransferUnit {
  lock(payoutId: string, livemode: boolean): Promise<LockedTransfer | null>;
  /** Records a step; the outcome, if any, goes to the outbox with it. */
  recordStep(
    transfer: LockedTransfer,
    step: TransferStep,
    details: { reasonCode?: string | undefined; end2endId?: string | undefined },
    at: Date,
  ): Promise<void>;
}

/** A transfer payouts asked for, as recorded. */
export interface NewPayoutTransfer {
  payoutId: string;
  livemode: boolean;
  payeeAlias: string;
  amount: bigint;
  reason: string;
  at: Date;
}

export interface PayoutTransferStore {
  /** Records the transfer payouts asked for, in the consumer's transaction, unless it is known. */
  recordRequest(tx: unknown, request: NewPayoutTransfer): Promise<'recorded' | 'known'>;
  /** Claims transfers due at `now` (FOR UPDATE SKIP LOCKED), pushing their due time `leaseMs` ahead. */
  claimDue(now: Date, limit: number, leaseMs: number): Promise<DueTransfer[]>;
  inTransaction<T>(work: (unit: TransferUnit) => Promise<T>): Promise<T>;
}

export interface CallbackStore {
  inTransaction<T>(work: (unit: CallbackUnit) => Promise<T>): Promise<T>;
  /**
   * A request's first decision, with its event (`receipt`) and psp.payment_request.updated, in one statement
   * committed by itself; only while the request has no decision and the event was never recorded. False when
   * nothing was written: no such request, a decision already, or a redelivered event.
   */
  recordFirstDecision(
    receipt: CallbackEventReceipt,
    update: PaymentRequestUpdate,
    paymentEnd2endId: string | undefined,
  ): Promise<boolean>;
  /** Deletes at most `limit` events received before `before`; answers how many it deleted. */
  deleteEventsReceivedBefore(before: Date, limit: number): Promise<number>;
}

/** A fund return claimed for sending. */
export interface DueFundReturn {
  txId: string;
  livemode: boolean;
  end2endId: string;
  /** The refund request's trace context (W3C headers), which its sends continue. */
  traceContext: Readonly<Record<string, string>>;
}

/** A fund return payments asked for, as recorded. */
export interface NewFundReturn {
  txId: string;
  end2endId: string;
  livemode: boolean;
  amount: bigint;
  at: Date;
}

/** What one fund-return transaction can do. */
export interface FundReturnUnit {
  lock(fundReturn: { livemode: boolean; end2endId: string }): Promise<LockedFundReturn | null>;
  recordStep(
    fundReturn: LockedFundReturn,
    step: FundReturnStep,
    reasonCode: string | undefined,
    at: Date,
    sentAgain: boolean,
  ): Promise<void>;
}

export interface FundReturnStore {
  /**
   * Records the return of the transfer `end2endId` received on the attempt `txId`, in the consumer's
   * transaction, unless it is known; throws when no such transfer was received (the message is retried, then
   * dead-lettered): money that did not arrive is never sent back.
   */
  recordRequest(tx: unknown, request: NewFundReturn): Promise<'recorded' | 'known'>;
  /** Claims returns due at `now` (FOR UPDATE SKIP LOCKED), pushing their due time `leaseMs` ahead. */
  claimDue(now: Date, limit: number, leaseMs: number): Promise<DueFundReturn[]>;
  inTransaction<T>(work: (unit: FundReturnUnit) => Promise<T>): Promise<T>;
}
