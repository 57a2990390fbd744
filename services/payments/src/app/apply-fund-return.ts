import { recordFundReturn } from '../domain/lifecycle';
import type { FundReturnNews, Transaction, UseCaseContext } from './ports';

/**
 * psp.fund_return.updated, inside the consumer's transaction: one transfer owed back on an attempt went back
 * to the customer (a duplicate's return is announced with payment.duplicate_refunded; the ledger releases what
 * it booked from the same event), or psp-connector gave up after the scheme kept refusing it (the attempt shows
 * `failed`, and operators are told). Repeats change nothing; news about a tx_id this service never issued, or
 * of another mode than its payment's, is an error (retried, then dead-lettered).
 */
export class ApplyFundReturn {
  constructor(private readonly dependencies: UseCaseContext) {}

  async execute(news: FundReturnNews, tx: Transaction): Promise<void> {
    const { payments, clock, logger } = this.dependencies;
    const { payment, attempt } = await payments.lockByTxId(tx, news.txId);
    if (payment.livemode !== news.livemode) {
      throw new Error(`fund return news for ${news.txId} says livemode ${news.livemode}, the payment not`);
    }

    const now = clock.now();
    const outcome = recordFundReturn(payment, attempt.id, news.endToEndId, news.result, now);
    const fields = { payment_id: payment.id, tx_id: news.txId, amount: news.amount };
    if (!outcome.changed) {
      logger.info({ ...fields, result: news.result }, 'stale fund return news ignored');
      return;
    }
    if (news.result === 'sent') {
      logger.info(fields, 'money returned to the customer');
    } else {
      logger.error(
        { ...fields, reason_code: news.reasonCode },
        'the scheme keeps refusing to return money to a customer: an operator must return it',
      );
    }
    await payments.record(tx, payment, outcome, now);
  }
}
