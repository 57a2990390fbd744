import { settle, type TransferOutcome } from '../domain/payout';
import { tagSpan } from '@sika/platform';
import type { Transaction, UseCaseContext } from './ports';

export interface TransferNews {
  payoutId: string;
  livemode: boolean;
  outcome: TransferOutcome;
}

/**
 * psp.payout_transfer.updated, inside the consumer's transaction: payouts decides here, in this one commit,
 * that the payout is paid or failed, and writes its event (`payout.paid`, `payout.failed`), from which the
 * ledger releases the reservation (paid) or reverses it to `available` (failed), once per payout. Nothing is
 * asked of the ledger before the commit, so a slow ledger cannot book an outcome payouts did not commit. A
 * repeat, or news of a payout already settled, changes nothing; news of a payout this service never made is an
 * error (retried, then dead-lettered).
 */
export class ApplyTransferOutcome {
  constructor(private readonly deps: UseCaseContext) {}

  async execute(news: TransferNews, tx: Transaction): Promise<void> {
    const { payouts, clock, logger } = this.deps;
    tagSpan({ payoutId: news.payoutId });
    const payout = await payouts.lockById(tx, news.payoutId);
    if (!payout || payout.livemode !== news.livemode) {
      throw new Error(`transfer news for payout ${news.payoutId}, which this service never sent`);
    }
    const now = clock.now();
    const settled = settle(payout, news.outcome, now);
    if (!settled) {
      logger.info({ payout_id: payout.id, status: payout.status }, 'stale transfer news ignored');
      return;
    }
    await payouts.recordSettled(tx, settled, now);
    logger.info(
      {
        payout_id: payout.id,
        status: settled.status,
        failure_code: settled.failureCode,
        reason_code: settled.reasonCode,
      },
      `payout ${settled.status}`,
    );
  }
}
