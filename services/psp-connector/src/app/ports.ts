import type { PispiClient } from '@sika/pispi';

import type { Mode } from '../domain/mode';
import type { PayerDecision, PaymentRequestUpdate, RequestOutcome } from '../domain/payment-request';

/** A mode's participant: its API client and Sika's account alias there. */
export interface Scheme {
  client: PispiClient;
  payeeAlias: string;
}

/** The configured schemes; live is absent until its configuration is given. */
export type SchemeDirectory = Readonly<Partial<Record<Mode, Scheme>>>;

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

export interface PaymentRequestRepository {
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

export interface SchemeWebhookRow {
  mode: Mode;
  webhookId: string;
  callbackUrl: string;
  secret: string;
  registeredAt: Date;
}

export interface SchemeWebhookAccess {
  find(mode: Mode): Promise<SchemeWebhookRow | null>;
  save(row: SchemeWebhookRow): Promise<void>;
}

export interface SchemeWebhookRepository extends SchemeWebhookAccess {
  /** Runs `work` while holding a lock on the mode's registration, so replicas starting together agree. */
  withRegistrationLock<T>(mode: Mode, work: (access: SchemeWebhookAccess) => Promise<T>): Promise<T>;
}

/** One received callback event, as recorded. */
export interface CallbackEventReceipt {
  mode: Mode;
  evCode: string;
  end2endId: string;
  txId: string;
  event: unknown;
  effect: 'published' | 'stale' | 'ignored' | 'unmatched';
  receivedAt: Date;
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
}

export interface CallbackStore {
  inTransaction<T>(work: (unit: CallbackUnit) => Promise<T>): Promise<T>;
}
