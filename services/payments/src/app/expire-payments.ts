import { expirePayment } from '../domain/lifecycle';
import type { UseCaseContext } from './ports';

/** created, request_sent or accepted_deferred past expires_at → expired + payment.expired (spec §3.2). */
export class ExpirePayments {
  constructor(
    private readonly context: UseCaseContext,
    private readonly batchSize = 100,
  ) {}

  async execute(): Promise<number> {
    const { db, payments, clock } = this.context;
    const expired = await db.transaction(async (tx) => {
      const now = clock.now();
      const due = await payments.lockExpired(tx, now, this.batchSize);
      for (const payment of due) {
        await this.context.payments.record(tx, payment, expirePayment(payment, now), now);
      }
      return due.length;
    });
    if (expired > 0) {
      this.context.eventsCommitted();
      this.context.logger.info({ count: expired }, 'payments expired');
    }
    return expired;
  }
}
