import type { AttemptOutcome } from '../domain/attempt';
import { applyAttemptOutcome, type Outcome } from '../domain/lifecycle';
import type { Payment } from '../domain/payment';
import type { Ledger, SchemeUpdate, Transaction, UseCaseContext } from './ports';

/**
 * Scheme callbacks about attempts (psp.payment_request.updated), inside the consumer's transaction (the inbox
 * rows commit with it): the callbacks that arrived together, applied together. On payment, the ledger credit
 * is posted first (idempotent per payment id) and only then is `succeeded` committed: whoever sees
 * `succeeded` sees the money on the balance. Money that must not settle the payment (a duplicate, a payment
 * after it closed, another amount than asked) is booked as owed back first, then the refund request commits
 * with the attempt. If a ledger call fails, the whole batch rolls back and each message is tried again alone.
 * A tx_id this service never issued is an error, so the message is retried and then dead-lettered rather
 * than dropped.
 */
export class ApplyPspUpdate {
  constructor(private readonly dependencies: UseCaseContext & { ledger: Ledger }) {}

  async execute(updates: readonly SchemeUpdate[], tx: Transaction): Promise<void> {
    const { payments, clock } = this.dependencies;
    const locked = await payments.lockByTxIds(
      tx,
      updates.map((update) => update.txId),
    );
    const paymentIds = new Set(locked.map(({ payment }) => payment.id));
    if (paymentIds.size < updates.length) {
      // Each would be applied to the payment as it was before the other: one transaction each, in order.
      throw new Error('two updates about one payment arrived together');
    }
    const now = clock.now();
    const changes = locked.flatMap(({ payment, attempt }, index) => {
      const update = updates[index]!;
      const outcome = this.outcomeOf(update, payment, attempt.id, now);
      return outcome === null ? [] : [{ before: payment, outcome }];
    });
    await settleAll(changes.map(({ before, outcome }) => this.post(before, outcome)));
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

  /** The ledger's postings of an outcome: the credit of a payment, the booking of money owed back. */
  private async post(payment: Payment, outcome: Outcome): Promise<void> {
    const { ledger } = this.dependencies;
    const scope = { merchantId: payment.merchantId, livemode: payment.livemode };
    if (outcome.credit !== null) {
      await ledger.postPaymentCredit({
        ...scope,
        paymentId: payment.id,
        amount: outcome.credit.amount,
        feeAmount: outcome.credit.feeAmount,
      });
    }
    if (outcome.refund !== null) {
      await ledger.postRefund({ ...scope, ...outcome.refund, stage: 'payable' });
    }
  }
}

/**
 * Waits for every posting (the ledger takes those of one turn together), then fails with the first failure:
 * the transaction does not end while a posting is still on its way.
 */
async function settleAll(postings: readonly Promise<void>[]): Promise<void> {
  const failure = (await Promise.allSettled(postings)).find((result) => result.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
}

/**
 * A payment is only a payment of the amount asked, to Sika's account: any other amount (0 included) or
 * payee is never credited.
 */
function checkedPayment(update: SchemeUpdate, payment: Payment): AttemptOutcome {
  const { outcome } = update;
  if (outcome.kind !== 'paid') return outcome;
  const mismatch = update.payeeMismatch ? 'payee' : update.amount !== payment.amount ? 'amount' : null;
  if (mismatch === null) return outcome;
  return { kind: 'mispaid', endToEndId: outcome.endToEndId, amount: update.amount, mismatch };
}
