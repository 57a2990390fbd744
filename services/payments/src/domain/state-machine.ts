import { AppError } from '@sika/platform/pure';
import { isFinal } from './payment';
import type { PaymentEventType, PaymentMode, PaymentStatus } from './payment';

/** What can happen to a payment (spec §3.2). */
export type PaymentTrigger =
  /** An attempt's request reached the payer's bank. */
  | { kind: 'request_sent' }
  /** The payer accepted to pay on delivery. */
  | { kind: 'payer_accepted_deferred' }
  /** The payer validated and the funds moved. */
  | { kind: 'payer_paid' }
  /** The payer refused; `retryPossible` when another attempt may still settle the payment. */
  | { kind: 'payer_declined'; retryPossible: boolean }
  | { kind: 'deadline_passed' }
  | { kind: 'merchant_canceled' }
  /** A technical error on the bank side. */
  | { kind: 'bank_failed' };

export interface Transition {
  to: PaymentStatus;
  /** The event of the change; null when the status stays as it was. */
  event: PaymentEventType | null;
}

function moveTo(to: Exclude<PaymentStatus, 'created'>): Transition {
  return { to, event: `payment.${to}` };
}

function stay(status: PaymentStatus): Transition {
  return { to: status, event: null };
}

/** A trigger that cannot happen in this status: a bug or a message out of order, never a client error. */
export class TransitionNotAllowed extends Error {
  override readonly name = 'TransitionNotAllowed';

  constructor(from: PaymentStatus, trigger: PaymentTrigger['kind']) {
    super(`transition not allowed: ${trigger} on a ${from} payment`);
  }
}

function assertNever(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}

/**
 * The payment state machine of spec §3.2 as one pure function, exhaustive over statuses and triggers.
 * Final statuses never change: any trigger on them is payment_already_final. Where the spec's matrix is
 * "not shown", the choices are:
 * - a new request on a request_sent or accepted_deferred payment leaves it as it is (one more attempt);
 * - a refusal on accepted_deferred declines the payment (no new attempt once the payer accepted);
 * - a payment must have had a request sent before any payer answer (created → request_sent first).
 */
export function transition(from: PaymentStatus, trigger: PaymentTrigger, mode: PaymentMode): Transition {
  if (isFinal(from)) {
    throw new AppError('payment_already_final', `The payment is already ${from}.`);
  }
  switch (trigger.kind) {
    case 'deadline_passed':
      return moveTo('expired');
    case 'merchant_canceled':
      return moveTo('canceled');
    case 'bank_failed':
      return moveTo('failed');
    case 'request_sent':
      return from === 'created' ? moveTo('request_sent') : stay(from);
    case 'payer_paid':
      if (from === 'created') throw new TransitionNotAllowed(from, trigger.kind);
      return moveTo('succeeded');
    case 'payer_accepted_deferred':
      if (from === 'created' || mode !== 'on_delivery') throw new TransitionNotAllowed(from, trigger.kind);
      return from === 'accepted_deferred' ? stay(from) : moveTo('accepted_deferred');
    case 'payer_declined':
      if (from === 'created') throw new TransitionNotAllowed(from, trigger.kind);
      if (from === 'request_sent' && trigger.retryPossible) return stay(from);
      return moveTo('declined');
    default:
      return assertNever(trigger);
  }
}
