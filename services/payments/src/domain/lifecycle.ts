import { AppError } from '@sika/platform/pure';
import type { PayerAlias } from './alias';
import { nextAttemptStep } from './attempt';
import type { AttemptOutcome } from './attempt';
import { isPastDeadline, leavesTimeToAnswer } from '@sika/rules';
import { computeFee } from '@sika/fees';
import { CURRENCY, MAX_ATTEMPTS, isFinal, isOutstanding } from './payment';
import type { Attempt, Payment, PaymentChange, PaymentEventType } from './payment';
import { transition } from './state-machine';
import type { PaymentTrigger } from './state-machine';

/** Pure operations on a payment and its attempts: each returns the new payment and the changes to announce. */

export interface NewAttempt {
  id: string;
  txId: string;
  alias: PayerAlias;
  /** The in-line send owns the attempt until then; afterwards the sweeper may send it. */
  dispatchAfter: Date;
}

/** A payment about to be created: what its creation decided, before any status, fee or attempt. */
export interface PaymentDraft extends Pick<
  Payment,
  | 'id'
  | 'merchantId'
  | 'livemode'
  | 'amount'
  | 'mode'
  | 'feeRule'
  | 'merchantName'
  | 'reference'
  | 'description'
  | 'returnUrl'
  | 'cancelUrl'
  | 'checkoutUrl'
  | 'metadata'
  | 'expiresAt'
> {
  /** With customer_alias, the request leaves at once: the first attempt is recorded with the payment. */
  firstAttempt: NewAttempt | null;
}

function unchanged(payment: Payment): Outcome {
  return { payment, changes: [], refund: null, changed: false };
}

function attemptFrom(spec: NewAttempt, sequence: number, now: Date): Attempt {
  return {
    id: spec.id,
    sequence,
    txId: spec.txId,
    status: 'pending',
    payerAlias: spec.alias.value,
    payerAliasMasked: spec.alias.masked,
    duplicate: false,
    failureCode: null,
    refunds: [],
    reasonCode: null,
    endToEndId: null,
    dispatchAfter: spec.dispatchAfter,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * A payment whose creation the scheme refused for its alias (spec §1, §7): still `created`, its only attempt
 * failed with alias_unknown. Its creation answers alias_unknown and it is deleted: nobody has its checkout_url.
 */
export function isRefusedAtCreation(payment: Payment): boolean {
  const [attempt, ...others] = payment.attempts;
  return (
    payment.status === 'created' &&
    others.length === 0 &&
    attempt?.status === 'failed' &&
    attempt.failureCode === 'alias_unknown'
  );
}

/** A new payment is `created`, whether or not its first request is about to leave (spec §4.1). */
export function newPayment(draft: PaymentDraft, now: Date): Payment {
  const { firstAttempt, ...fields } = draft;
  return {
    ...fields,
    status: 'created',
    currency: CURRENCY,
    feeAmount: null,
    netAmount: null,
    createdAt: now,
    updatedAt: now,
    attempts: firstAttempt === null ? [] : [attemptFrom(firstAttempt, 1, now)],
  };
}

/**
 * The customer entered an alias: one more attempt with its own tx_id (spec §3.2 rule 1). Only a payment
 * still waiting for its payer takes one. Past its deadline or once the payer accepted to pay on delivery it
 * is closed to new attempts; the catalog has no dedicated code for that, so it answers like a final one.
 */
export function addAttempt(
  payment: Payment,
  spec: NewAttempt,
  now: Date,
): { payment: Payment; attempt: Attempt } {
  if (isFinal(payment.status)) {
    throw new AppError('payment_already_final', `The payment is already ${payment.status}.`);
  }
  if (isPastDeadline(payment.expiresAt, now)) {
    throw new AppError('payment_already_final', 'The payment has expired.');
  }
  if (payment.status === 'accepted_deferred') {
    throw new AppError('payment_already_final', 'The payer already accepted this payment.');
  }
  if (payment.attempts.length >= MAX_ATTEMPTS) {
    throw new AppError('too_many_attempts', `A payment accepts at most ${MAX_ATTEMPTS} attempts.`);
  }
  if (!leavesTimeToAnswer(payment.expiresAt, now)) {
    throw new AppError(
      'payment_expiring',
      'The payment expires too soon for the customer to answer a new request.',
    );
  }
  const attempt = attemptFrom(spec, payment.attempts.length + 1, now);
  return { payment: { ...payment, attempts: [...payment.attempts, attempt], updatedAt: now }, attempt };
}

/** Money to return to a customer: the transfer `endToEndId` that arrived on the attempt `txId`. */
export interface Refund {
  txId: string;
  endToEndId: string;
  amount: bigint;
}

/**
 * What payments decided, committed once in its own transaction with the events announcing it: the ledger
 * credits a payment from its `payment.succeeded` event and books refunds from `payments.refund.requested`, so
 * nothing here waits on another service, and no deadline or competing command can split the decision.
 */
export interface Outcome {
  payment: Payment;
  /** Status changes in order, each with its event; empty when the status stayed. */
  changes: PaymentChange[];
  /**
   * Money that can no longer settle the payment (a duplicate, a second transfer, a payment after the payment
   * closed or after its deadline, a wrong amount or payee): it goes back to the payer (spec §3.2 rules 3 and 4).
   */
  refund: Refund | null;
  /** False when the outcome was stale and changed nothing. */
  changed: boolean;
}

class Changes {
  readonly list: PaymentChange[] = [];

  constructor(
    public payment: Payment,
    private readonly now: Date,
  ) {}

  /** An event without a status change (payment.duplicate_refunded). */
  announce(type: PaymentEventType): void {
    this.list.push({ type, payment: this.payment });
  }

  apply(trigger: PaymentTrigger, fields: Partial<Payment> = {}): void {
    const { to, event } = transition(this.payment.status, trigger, this.payment.mode);
    if (event === null) return;
    this.payment = { ...this.payment, ...fields, status: to, updatedAt: this.now };
    this.list.push({ type: event, payment: this.payment });
  }

  updateAttempt(attempt: Attempt): void {
    this.payment = {
      ...this.payment,
      attempts: this.payment.attempts.map((each) => (each.id === attempt.id ? attempt : each)),
      updatedAt: this.now,
    };
  }
}

const PAYER_ANSWERS: ReadonlySet<AttemptOutcome['kind']> = new Set([
  'accepted_deferred',
  'paid',
  'mispaid',
  'declined',
  'expired',
]);

/** Whether the payer may still settle the payment once `declinedId` is refused: spec §3.2, rule 2. */
function retryPossible(payment: Payment, declinedId: string, now: Date): boolean {
  const othersOutstanding = payment.attempts.some(
    (attempt) => attempt.id !== declinedId && isOutstanding(attempt),
  );
  const newAttemptPossible =
    payment.attempts.length < MAX_ATTEMPTS && leavesTimeToAnswer(payment.expiresAt, now);
  return othersOutstanding || newAttemptPossible;
}

type MoneyOutcome = Extract<AttemptOutcome, { kind: 'paid' | 'mispaid' }>;

function isMoney(outcome: AttemptOutcome): outcome is MoneyOutcome {
  return outcome.kind === 'paid' || outcome.kind === 'mispaid';
}

/** A transfer already recorded on the attempt, as its settling payment or as money owed back. */
function knowsTransfer(attempt: Attempt, endToEndId: string): boolean {
  return (
    attempt.endToEndId === endToEndId || attempt.refunds.some((refund) => refund.endToEndId === endToEndId)
  );
}

/**
 * Records what the scheme said about one attempt and what follows for the payment: request_sent, succeeded
 * (with its fee), accepted_deferred or declined. Stale outcomes (redeliveries, late news) change nothing.
 * Money is recorded per transfer: a transfer already known changes nothing, and a further transfer on an
 * attempt that already succeeded goes back to the payer.
 */
export function applyAttemptOutcome(
  payment: Payment,
  attemptId: string,
  outcome: AttemptOutcome,
  now: Date,
): Outcome {
  const attempt = payment.attempts.find((each) => each.id === attemptId);
  if (attempt === undefined) throw new Error(`${attemptId} is not an attempt of ${payment.id}`);
  if (isMoney(outcome)) {
    if (knowsTransfer(attempt, outcome.endToEndId)) return unchanged(payment);
    if (attempt.status === 'succeeded') return secondTransfer(payment, attempt, outcome, now);
  }
  const step = nextAttemptStep(attempt.status, outcome);
  if (step === null) return unchanged(payment);

  const changes = new Changes(payment, now);
  const updated: Attempt = {
    ...attempt,
    status: step.to,
    failureCode: step.failureCode,
    reasonCode: 'reasonCode' in outcome ? outcome.reasonCode : attempt.reasonCode,
    endToEndId: outcome.kind === 'paid' ? outcome.endToEndId : attempt.endToEndId,
    dispatchAfter: null,
    updatedAt: now,
  };
  changes.updateAttempt(updated);

  // A payer's answer proves the request reached their bank, even when the news of the sending (the
  // scheme's synchronous reply) has not been recorded yet: the payment passes through request_sent.
  if (PAYER_ANSWERS.has(outcome.kind) && changes.payment.status === 'created') {
    changes.apply({ kind: 'request_sent' });
  }

  let refund: Refund | null = null;
  const owedBack = (money: MoneyOutcome, duplicate: boolean): void => {
    refund = oweBack(changes, attemptId, attempt.txId, money, duplicate);
  };
  const open = !isFinal(changes.payment.status);
  switch (outcome.kind) {
    case 'sent':
      if (open) changes.apply({ kind: 'request_sent' });
      break;
    case 'accepted_deferred':
      if (open) changes.apply({ kind: 'payer_accepted_deferred' });
      break;
    case 'declined':
      if (open) {
        changes.apply({
          kind: 'payer_declined',
          retryPossible: retryPossible(changes.payment, attemptId, now),
        });
      }
      break;
    case 'paid':
      if (open && isPastDeadline(payment.expiresAt, outcome.receivedAt)) {
        // Received after the deadline, by the scheme's own clock: it never settles the payment, which was
        // due to expire whether or not the expiry job has come round to it yet.
        closePendingAttempts(changes, now);
        changes.apply({ kind: 'deadline_passed' });
        owedBack(outcome, false);
      } else if (open) {
        const { feeAmount, netAmount } = computeFee(payment.amount, payment.feeRule);
        changes.apply({ kind: 'payer_paid' }, { feeAmount, netAmount });
      } else {
        const duplicate = changes.payment.status === 'succeeded';
        if (duplicate) changes.updateAttempt({ ...updated, duplicate: true });
        owedBack(outcome, duplicate);
      }
      break;
    case 'mispaid':
      owedBack(outcome, false);
      break;
    case 'failed':
      // Spec §3.2: a technical error at the bank fails the payment, whatever else was under way. Requests
      // that never left will not leave; one already with a payer that pays anyway is refunded.
      if (open) {
        closePendingAttempts(changes, now);
        changes.apply({ kind: 'bank_failed' });
      }
      break;
    case 'rejected':
    case 'alias_unknown':
    case 'expired':
    case 'closed':
      // Spec §3.2 rule 2: a refused or expired attempt leaves the payment as it is; its deadline decides.
      break;
  }
  return { payment: changes.payment, changes: changes.list, refund, changed: true };
}

/**
 * Books a transfer as owed back on the attempt (pending until its return is sent) and says what to return.
 * Nothing arrived, nothing to return: a zero "payment" is recorded, never credited nor returned.
 */
function oweBack(
  changes: Changes,
  attemptId: string,
  txId: string,
  money: MoneyOutcome,
  duplicate: boolean,
): Refund | null {
  if (money.amount < 1n) return null;
  const current = changes.payment.attempts.find((each) => each.id === attemptId);
  if (current === undefined) throw new Error(`${attemptId} is not an attempt of ${changes.payment.id}`);
  const owed = { endToEndId: money.endToEndId, status: 'pending' as const, duplicate };
  changes.updateAttempt({ ...current, refunds: [...current.refunds, owed] });
  return { txId, endToEndId: money.endToEndId, amount: money.amount };
}

/**
 * The payer's bank paid an attempt that already succeeded once more (another transfer on the same request):
 * the payment and the attempt stay as they are, and this money goes back like a duplicate's.
 */
function secondTransfer(payment: Payment, attempt: Attempt, money: MoneyOutcome, now: Date): Outcome {
  const changes = new Changes(payment, now);
  const refund = oweBack(changes, attempt.id, attempt.txId, money, money.kind === 'paid');
  return { payment: changes.payment, changes: changes.list, refund, changed: refund !== null };
}

/** Attempts that never left cannot leave any more once the payment is closed. */
function closePendingAttempts(changes: Changes, now: Date): void {
  for (const attempt of changes.payment.attempts) {
    if (attempt.status !== 'pending') continue;
    changes.updateAttempt({
      ...attempt,
      status: 'failed',
      failureCode: 'payment_closed',
      dispatchAfter: null,
      updatedAt: now,
    });
  }
}

function close(payment: Payment, trigger: PaymentTrigger, now: Date): Outcome {
  // Checked first, so that a refused close changes nothing at all.
  transition(payment.status, trigger, payment.mode);
  const changes = new Changes(payment, now);
  closePendingAttempts(changes, now);
  changes.apply(trigger);
  return { payment: changes.payment, changes: changes.list, refund: null, changed: true };
}

/** The merchant cancels: any non-final payment; a final one is payment_already_final (spec §4.4). */
export function cancelPayment(payment: Payment, now: Date): Outcome {
  return close(payment, { kind: 'merchant_canceled' }, now);
}

/** The deadline passed without payment (spec §3.2): created, request_sent or accepted_deferred → expired. */
export function expirePayment(payment: Payment, now: Date): Outcome {
  if (!isPastDeadline(payment.expiresAt, now)) {
    throw new Error(`${payment.id} expires at ${payment.expiresAt.toISOString()}, not yet`);
  }
  return close(payment, { kind: 'deadline_passed' }, now);
}

/**
 * A test helper ends the wait now (test mode only): the deadline moves to now and the payment expires as at
 * its deadline. A request still waiting at the customer's bank stays there; paid later, its money goes back.
 */
export function expireNow(payment: Payment, now: Date): Outcome {
  if (payment.livemode) {
    throw new AppError('test_mode_only', 'Only a test payment can be made to expire now.');
  }
  return expirePayment({ ...payment, expiresAt: now }, now);
}

/**
 * psp-connector's news of the return of one transfer paid on an attempt: sent, or abandoned after the scheme
 * kept refusing it (operators take over). A duplicate's return sent is announced (spec §3.2 rule 4); the
 * payment's status never changes. News about a return already settled is stale.
 */
export function recordFundReturn(
  payment: Payment,
  attemptId: string,
  endToEndId: string,
  result: 'sent' | 'abandoned',
  now: Date,
): Outcome {
  const attempt = payment.attempts.find((each) => each.id === attemptId);
  if (attempt === undefined) throw new Error(`${attemptId} is not an attempt of ${payment.id}`);
  const refund = attempt.refunds.find((each) => each.endToEndId === endToEndId);
  if (refund === undefined) throw new Error(`no return of ${endToEndId} is owed on ${attempt.txId}`);
  if (refund.status !== 'pending') return unchanged(payment);
  const changes = new Changes(payment, now);
  const settled = { ...refund, status: result === 'sent' ? ('sent' as const) : ('failed' as const) };
  changes.updateAttempt({
    ...attempt,
    refunds: attempt.refunds.map((each) => (each === refund ? settled : each)),
    updatedAt: now,
  });
  if (result === 'sent' && refund.duplicate) changes.announce('payment.duplicate_refunded');
  return { payment: changes.payment, changes: changes.list, refund: null, changed: true };
}
