import { leavesTimeToAnswer } from '@sika/rules';

import { MAX_ATTEMPTS } from './payment';
import type { AttemptStatus, CheckoutAttempt, CheckoutPayment, PaymentStatus } from './payment';

/** Why the alias form is shown again: what became of the customer's previous request. */
export type RetryNotice =
  'previous_declined' | 'previous_expired' | 'previous_failed' | 'previous_alias_unknown';

/** How the page ended, when it ended anywhere but at return_url. */
export type Outcome = 'declined' | 'expired' | 'canceled' | 'failed' | 'attempts_exhausted';

/**
 * What the hosted page shows for a payment, decided in one place for the page, the form submission and
 * the live event stream alike:
 * - alias_form: the customer can (again) enter an alias;
 * - waiting: a request is on its way to the customer's bank (`sending`) or waits there for them (`sent`);
 * - paid: the customer is done and goes back to return_url (succeeded, or accepted to pay on delivery);
 * - outcome: nothing more can happen on this page.
 */
export type CheckoutScreen =
  | { kind: 'alias_form'; notice: RetryNotice | null }
  | { kind: 'waiting'; stage: 'sending' | 'sent' }
  | { kind: 'paid' }
  | { kind: 'outcome'; outcome: Outcome };

const FINAL_OUTCOMES: Partial<Record<PaymentStatus, Outcome>> = {
  declined: 'declined',
  expired: 'expired',
  canceled: 'canceled',
  failed: 'failed',
};

/** The customer may still validate these at their bank. */
const OUTSTANDING: ReadonlySet<AttemptStatus> = new Set(['pending', 'sent', 'accepted_deferred']);

function noticeAfter(attempt: CheckoutAttempt | undefined): RetryNotice | null {
  switch (attempt?.status) {
    case 'declined':
      return 'previous_declined';
    case 'expired':
      return 'previous_expired';
    case 'failed':
      return attempt.failureCode === 'alias_unknown' ? 'previous_alias_unknown' : 'previous_failed';
    default:
      return null;
  }
}

export function checkoutScreenOf(payment: CheckoutPayment, now: Date): CheckoutScreen {
  if (payment.status === 'succeeded' || payment.status === 'accepted_deferred') return { kind: 'paid' };
  const finalOutcome = FINAL_OUTCOMES[payment.status];
  if (finalOutcome !== undefined) return { kind: 'outcome', outcome: finalOutcome };

  // A request still open at the bank can settle the payment even past the deadline: keep waiting for
  // payments to decide rather than guess.
  const outstanding = payment.attempts.filter((attempt) => OUTSTANDING.has(attempt.status));
  if (outstanding.length > 0) {
    return {
      kind: 'waiting',
      stage: outstanding.some(({ status }) => status !== 'pending') ? 'sent' : 'sending',
    };
  }
  // The expiry scheduler may not have run yet; the deadline is already binding, and so close to it that a
  // customer could not answer in time, payments takes no new attempt.
  if (!leavesTimeToAnswer(payment.expiresAt, now)) return { kind: 'outcome', outcome: 'expired' };
  if (payment.attempts.length >= MAX_ATTEMPTS) return { kind: 'outcome', outcome: 'attempts_exhausted' };
  return { kind: 'alias_form', notice: noticeAfter(payment.attempts.at(-1)) };
}

/** Screens that can still change while the customer looks at them: only these are followed live. */
export function isLiveScreen(screen: CheckoutScreen): boolean {
  return screen.kind === 'waiting';
}

/**
 * A short name of the screen (`waiting:sent`, `outcome:declined`): two screens with the same key render the
 * same way. The page carries its key, and the live stream sends the key of the current screen, so the
 * browser reloads exactly when what it shows is out of date.
 */
export function screenKey(screen: CheckoutScreen): string {
  switch (screen.kind) {
    case 'alias_form':
      return `alias_form:${screen.notice ?? 'none'}`;
    case 'waiting':
      return `waiting:${screen.stage}`;
    case 'paid':
      return 'paid';
    case 'outcome':
      return `outcome:${screen.outcome}`;
  }
}
