import { QueueScanWindow } from '@sika/platform';

import { expirePayment } from '../domain/lifecycle';
import type { UseCaseContext } from './ports';

/** created, request_sent or accepted_deferred past expires_at → expired + payment.expired (spec §3.2). */
export class ExpirePayments {
  /** Payments that expired this long ago at most are looked for routinely; the full scans find older ones. */
  private readonly scanWindow = new QueueScanWindow({ windowMs: 60_000, fullScanIntervalMs: 30_000 });

  constructor(
    private readonly context: UseCaseContext,
    private readonly batchSize = 100,
  ) {}

  async execute(): Promise<number> {
    const { db, payments, clock } = this.context;
    const now = clock.now();
    const since = this.scanWindow.start(now);
    const expired = await db.transaction(async (tx) => {
      const due = await payments.lockExpired(tx, now, since, this.batchSize);
      for (const payment of due) {
        await this.context.payments.record(tx, payment, expirePayment(payment, now), now);
      }
      return due.length;
    });
    this.scanWindow.scanned(since, expired, this.batchSize);
    if (expired > 0) {
      this.context.eventsCommitted();
      this.context.logger.info({ count: expired }, 'payments expired');
    }
    return expired;
  }
}
