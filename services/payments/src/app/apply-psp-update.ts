import type { AttemptOutcome } from '../domain/attempt';
import { applyAttemptOutcome } from '../domain/lifecycle';
import type { Payment } from '../domain/payment';
import type { Ledger, SchemeUpdate, Transaction, UseCaseContext } from './ports';

/**
 * A scheme callback about one attempt (psp.payment_request.updated), inside the consumer's transaction
 * (the inbox row commits with it). On payment, the ledger credit is posted first (idempotent per payment
 * id) and only then is `succeeded` committed: whoever sees `succeeded` sees the money on the balance. Money
 * that must not settle the payment (a duplicate, a payment after it closed, another amount than asked) is
 * booked as owed back first, then the refund request commits with the attempt. If a ledger call fails, the
 * whole message rolls back and is retried. A tx_id this service never issued is an error, so the message
 * is retried and then dead-lettered rather than dropped.
 */
export class ApplyPspUpdate {
  constructor(private readonly dependencies: UseCaseContext & { ledger: Ledger }) {}

  async execute(update: SchemeUpdate, tx: Transaction): Promise<void> {
    const { payments, clock, ledger, logger } = this.dependencies;
    const { payment, attempt } = await payments.lockByTxId(tx, update.txId);
    if (payment.livemode !== update.livemode) {
      throw new Error(
        `update for ${update.txId} says livemode ${update.livemode}, the payment ${payment.livemode}`,
      );
    }

    const now = clock.now();
    const checked = checkedPayment(update, payment);
    const outcome = applyAttemptOutcome(payment, attempt.id, checked, now);
    const fields = { payment_id: payment.id, attempt_id: attempt.id, tx_id: attempt.txId };
    if (!outcome.changed) {
      logger.info({ ...fields, decision: update.outcome.kind }, 'stale scheme update ignored');
      return;
    }
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
    await payments.record(tx, payment, outcome, now);
  }
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
