import { recordFundReturn } from '../domain/lifecycle';
import type { FundReturnNews, Ledger, Transaction, UseCaseContext } from './ports';

/**
 * psp.fund_return.updated, inside the consumer's transaction: the money owed back on an attempt went back to
 * the customer (its refunds-payable booking is released, and a duplicate's return is announced with
 * payment.duplicate_refunded), or psp-connector gave up after the scheme kept refusing it (the attempt shows
 * `failed`, and operators are told). Repeats change nothing.
 */
export class ApplyFundReturn {
  constructor(private readonly dependencies: UseCaseContext & { ledger: Ledger }) {}

  async execute(news: FundReturnNews, tx: Transaction): Promise<void> {
    const { payments, clock, ledger, logger } = this.dependencies;
    const { payment, attempt } = await payments.lockByTxId(tx, news.txId);

    const now = clock.now();
    const outcome = recordFundReturn(payment, attempt.id, news.result, now);
    const fields = { payment_id: payment.id, tx_id: news.txId, amount: news.amount };
    if (!outcome.changed) {
      logger.info({ ...fields, result: news.result }, 'stale fund return news ignored');
      return;
    }
    if (news.result === 'sent') {
      await ledger.postRefund({
        merchantId: payment.merchantId,
        livemode: payment.livemode,
        txId: news.txId,
        amount: news.amount,
        stage: 'sent',
      });
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
