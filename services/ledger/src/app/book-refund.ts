import type { Clock, Logger } from '@sika/platform';
import { planRefund, REFUND_KINDS, validateRefund, type Refund } from '../domain/refund';
import { SYSTEM_OWNER } from '../domain/accounts';
import type { BookingStore } from './ports';

/**
 * Money owed back to a customer, booked from the decisions of others, once per transfer and stage: `payable`
 * when payments decided the money must go back (payments.refund.requested), `sent` when psp-connector saw the
 * return go (psp.fund_return.updated). The two arrive on separate queues and may cross: `sent` books `payable`
 * first when it is missing, so refunds_payable returns to zero whatever the order, and a repeat writes nothing.
 * Only Sika's own accounts move: no merchant balance ever holds this money.
 */
export class BookRefund {
  constructor(private readonly deps: { bookings: BookingStore; clock: Clock; logger: Logger }) {}

  async execute(livemode: boolean, refund: Refund): Promise<void> {
    validateRefund(refund);
    const scope = { merchantId: SYSTEM_OWNER, livemode };
    const stages = refund.stage === 'sent' ? (['payable', 'sent'] as const) : (['payable'] as const);
    const createdAt = this.deps.clock.now();
    for (const stage of stages) {
      const created = await this.deps.bookings.recordSystemTransfer({
        scope,
        kind: REFUND_KINDS[stage],
        sourceId: refund.transferId,
        postings: planRefund({ ...refund, stage }),
        createdAt,
      });
      this.deps.logger.info(
        { end_to_end_id: refund.transferId, stage, livemode, created },
        created ? 'refund booked' : 'refund already booked',
      );
    }
  }
}
