import { applyAttemptOutcome } from '../domain/lifecycle';
import type { Ledger, SchemeUpdate, Transaction, UseCaseContext } from './ports';

/**
 * A scheme callback about one attempt (psp.payment_request.updated), inside the consumer's transaction
 * (the inbox row commits with it). On payment, the ledger credit is posted first (idempotent per payment
 * id) and only then is `succeeded` committed: whoever sees `succeeded` sees the money on the balance. If
 * the credit fails, the whole message rolls back and is retried. A tx_id this service never issued is an
 * error, so the message is retried and then dead-lettered rather than dropped.
 */
export class ApplyPspUpdate {
  constructor(private readonly dependencies: UseCaseContext & { ledger: Ledger }) {}

  async execute(update: SchemeUpdate, tx: Transaction): Promise<void> {
    const { payments, clock, ledger, logger } = this.dependencies;
    const paymentId = await payments.findAttemptOwner(tx, { txId: update.txId });
    const payment = paymentId === null ? null : await payments.lockById(tx, paymentId);
    const attempt = payment?.attempts.find((each) => each.txId === update.txId);
    if (payment === null || attempt === undefined) throw new Error(`no attempt has tx_id ${update.txId}`);
    if (payment.livemode !== update.livemode) {
      throw new Error(
        `update for ${update.txId} says livemode ${update.livemode}, the payment ${payment.livemode}`,
      );
    }
    if (update.amount !== 0n && update.amount !== payment.amount) {
      throw new Error(
        `update for ${update.txId} carries amount ${update.amount}, the payment ${payment.amount}`,
      );
    }

    const now = clock.now();
    const outcome = applyAttemptOutcome(payment, attempt.id, update.outcome, now);
    const fields = { payment_id: payment.id, attempt_id: attempt.id, tx_id: attempt.txId };
    if (!outcome.changed) {
      logger.info({ ...fields, decision: update.outcome.kind }, 'stale scheme update ignored');
      return;
    }
    if (outcome.credit !== null) {
      await ledger.postPaymentCredit({
        merchantId: payment.merchantId,
        livemode: payment.livemode,
        paymentId: payment.id,
        amount: outcome.credit.amount,
        feeAmount: outcome.credit.feeAmount,
      });
    }
    await this.dependencies.payments.record(tx, payment, outcome, now);
    if (outcome.refundDue) {
      logger.warn(
        { ...fields, payment_status: outcome.payment.status },
        'the payer paid an attempt that cannot settle the payment: the amount is owed back to them',
      );
    }
  }
}
