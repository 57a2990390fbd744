import type { Clock, Logger } from '@sika/platform';
import { planRefund, REFUND_KINDS, validateRefund, type Refund } from '../domain/refund';
import type { Scope } from '../domain/scope';
import type { LedgerRepository } from './ports';

/**
 * One stage of a refund, once: payments posts `payable` before it records money it will not credit, and
 * `sent` when the return has gone; each is retried until answered, so a repeat changes nothing.
 */
export class PostRefund {
  constructor(private readonly deps: { repository: LedgerRepository; clock: Clock; logger: Logger }) {}

  async execute(scope: Scope, refund: Refund): Promise<void> {
    validateRefund(refund);
    const created = await this.deps.repository.recordSystemTransfer({
      scope,
      kind: REFUND_KINDS[refund.stage],
      sourceId: refund.txId,
      postings: planRefund(refund),
      createdAt: this.deps.clock.now(),
    });
    this.deps.logger.info(
      { tx_id: refund.txId, stage: refund.stage, livemode: scope.livemode, created },
      created ? 'refund posted' : 'refund already posted',
    );
  }
}
