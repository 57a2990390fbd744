import type { AttemptOutcome } from '../domain/attempt';
import { tagSpan } from '@sika/platform';
import { applyAttemptOutcome, type Outcome } from '../domain/lifecycle';
import type { Payment } from '../domain/payment';
import type { SchemeUpdate, Transaction, UseCaseContext } from './ports';

/**
 * Scheme callbacks about attempts (psp.payment_request.updated), inside the consumer's transaction (the inbox
 * rows commit with it): the callbacks that arrived together, applied together. Payments decides here, under
 * the payment's row lock and in this one commit, whether money settles the payment (`succeeded`, whose event
 * the ledger credits from) or goes back (`payments.refund.requested`, which psp-connector returns and the ledger
 * books as owed): no other service is asked before the commit, so a slow ledger can neither split the
 * decision nor race a cancel. A tx_id this service never issued is an error, so the message is retried and
 * then dead-lettered rather than dropped.
 */
export class ApplyPspUpdate {
  constructor(private readonly dependencies: UseCaseContext) {}

  async execute(updates: readonly SchemeUpdate[], tx: Transaction): Promise<void> {
    const { payments, clock } = this.dependencies;
    const locked = await payments.lockByTxIds(
      tx,
      updates.map((update) => update.txId),
    );
    // A message's span is the batch's when it comes alone, the usual case; ids of several would mislead.
    if (locked.length === 1) tagSpan({ paymentId: locked[0]!.payment.id, attemptId: locked[0]!.attempt.id });
    const paymentIds = new Set(locked.map(({ payment }) => payment.id));
    if (paymentIds.size < updates.length) {
      // Each would be applied to the payment as it was before the other: one transaction each, in order.
      throw new Error('two updates about one payment arrived together');
    }
    const now = clock.now();
    const changes = locked.flatMap(({ payment, attempt }, index) => {
      const update = updates[index]!;
      const outcome = this.outcomeOf(update, payment, attempt.id, now);
      return outcome === null ? [] : [{ before: payment, outcome, traceHeaders: update.traceHeaders }];
    });
    if (changes.length > 0) await payments.recordAll(tx, changes, now);
  }

  /** The update's outcome for the payment, or null when it changes nothing (a stale update). */
  private outcomeOf(update: SchemeUpdate, payment: Payment, attemptId: string, now: Date): Outcome | null {
    const { logger } = this.dependencies;
    if (payment.livemode !== update.livemode) {
      throw new Error(
        `update for ${update.txId} says livemode ${update.livemode}, the payment ${payment.livemode}`,
      );
    }
    const checked = checkedPayment(update, payment);
    const outcome = applyAttemptOutcome(payment, attemptId, checked, now);
    const fields = { payment_id: payment.id, attempt_id: attemptId, tx_id: update.txId };
    if (!outcome.changed) {
      logger.info({ ...fields, decision: update.outcome.kind }, 'stale scheme update ignored');
      return null;
    }
    if (outcome.refund !== null) {
      logger.warn(
        { ...fields, payment_status: outcome.payment.status, amount: outcome.refund.amount },
        'the payer paid an attempt that cannot settle the payment: the money goes back to them',
      );
    }
    if (checked.kind === 'mispaid') {
      logger.error(
        { ...fields, amount_paid: checked.amount, amount: payment.amount, mismatch: checked.mismatch },
        'a payment of another amount or to another account than asked: never credited',
      );
    }
    return outcome;
  }
}

/**
 * A payment is only a payment of the amount asked, to Sika's account: any other amount (0 included) or
 * payee is never credited.
 */
function checkedPayment(update: SchemeUpdate, payment: Payment): AttemptOutcome {
  const { outcome } = update;
  if (outcome.kind !== 'paid') return outcome;
  const mismatch = update.payeeMismatch ? 'payee' : outcome.amount !== payment.amount ? 'amount' : null;
  if (mismatch === null) return outcome;
  return { ...outcome, kind: 'mispaid', mismatch };
}
