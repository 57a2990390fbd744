import type { FeeRule } from '@sika/fees';
import { isFinalPaymentStatus, type AttemptFailureCode, type RefundStatus } from '@sika/rules';

/** Spec §3.1. */
export const PAYMENT_STATUSES = [
  'created',
  'request_sent',
  'accepted_deferred',
  'succeeded',
  'declined',
  'expired',
  'canceled',
  'failed',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A final status never changes afterwards (spec §3.1; the rule is @sika/rules', shared with the dashboard). */
export const isFinal: (status: PaymentStatus) => boolean = isFinalPaymentStatus;

export type PaymentMode = 'immediate' | 'on_delivery';

/**
 * pending: recorded, the scheme has not answered the request yet (it may not have left: see the sweeper);
 * sent: the request reached the payer's bank; the others mirror the payer's answer.
 */
export const ATTEMPT_STATUSES = [
  'pending',
  'sent',
  'accepted_deferred',
  'succeeded',
  'declined',
  'expired',
  'failed',
] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/** Spec §3.2 rule 1. */
export const MAX_ATTEMPTS = 5;

export const CURRENCY = 'XOF';

export type { AttemptFailureCode, RefundStatus } from '@sika/rules';

/** One transfer received on an attempt that goes back to the customer, named by its end-to-end id. */
export interface AttemptRefund {
  endToEndId: string;
  status: RefundStatus;
  /** The payment had already succeeded when this money arrived: its return is announced (duplicate_refunded). */
  duplicate: boolean;
}

export interface Attempt {
  id: string;
  /** 1..MAX_ATTEMPTS, in the order the aliases were entered. */
  sequence: number;
  txId: string;
  status: AttemptStatus;
  /**
   * The normalised clear alias: sent to the scheme, never returned nor logged (sealed at rest). Null once the
   * payment has been final for the alias retention period: nothing is sent for a final payment.
   */
  payerAlias: string | null;
  payerAliasMasked: string;
  duplicate: boolean;
  failureCode: AttemptFailureCode | null;
  /** Transfers received on it that go back to the customer, in the order they arrived; empty when none. */
  refunds: readonly AttemptRefund[];
  reasonCode: string | null;
  endToEndId: string | null;
  /** While pending: when the sweeper may (re)send the request. */
  dispatchAfter: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface Payment {
  id: string;
  merchantId: string;
  livemode: boolean;
  status: PaymentStatus;
  amount: bigint;
  currency: typeof CURRENCY;
  mode: PaymentMode;
  /** Snapshot of the merchant's rule at creation. */
  feeRule: FeeRule;
  /** Snapshot of the merchant's name at creation; null for payments made before it was kept. */
  merchantName: string | null;
  feeAmount: bigint | null;
  netAmount: bigint | null;
  reference: string | null;
  description: string | null;
  returnUrl: string;
  cancelUrl: string | null;
  checkoutUrl: string;
  metadata: Readonly<Record<string, string>>;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  /** Ordered by sequence. */
  attempts: readonly Attempt[];
}

/**
 * The public event types of a payment (spec §6): `payment.<status>` for each status change, and
 * `payment.duplicate_refunded` when a duplicate's money went back to the customer.
 */
export type PaymentEventType = `payment.${Exclude<PaymentStatus, 'created'>}` | 'payment.duplicate_refunded';

/** One change to announce: its event carries the payment as it stood right after it. */
export interface PaymentChange {
  type: PaymentEventType;
  payment: Payment;
}

/**
 * The attempt the payment-level `tx_id` and `payer_alias_masked` describe: the one that settled the payment,
 * else the latest entered.
 */
export function currentAttempt(payment: Payment): Attempt | undefined {
  const settling =
    payment.status === 'succeeded'
      ? payment.attempts.find((attempt) => attempt.status === 'succeeded' && !attempt.duplicate)
      : undefined;
  return settling ?? payment.attempts.at(-1);
}

/**
 * Where the attempt's money owed back stands, as one status (the public `refund_status`): pending while any
 * return is under way, failed when one was given up, sent once every one went; null when nothing is owed.
 */
export function refundStatusOf(attempt: Pick<Attempt, 'refunds'>): RefundStatus | null {
  const statuses = new Set(attempt.refunds.map((refund) => refund.status));
  if (statuses.size === 0) return null;
  if (statuses.has('pending')) return 'pending';
  return statuses.has('failed') ? 'failed' : 'sent';
}

/** Attempts whose answer is still awaited: the payment is not dead while one of them may succeed. */
export function isOutstanding(attempt: Attempt): boolean {
  return attempt.status === 'pending' || attempt.status === 'sent' || attempt.status === 'accepted_deferred';
}
