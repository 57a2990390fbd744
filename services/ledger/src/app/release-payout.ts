import type { Clock, Logger } from '@sika/platform';
import { validatePayoutId, type PayoutOutcome } from '../domain/payout';
import type { Scope } from '@sika/platform/pure';
import type { BookingStore } from './ports';

/**
 * Ends a payout's reservation from payouts' decision (its `payout.paid` or `payout.failed` event): paid, the
 * money leaves `pending_payout` for good; failed, it returns to `available` with a `payout_reversal` movement.
 * Once per payout: a repeat writes nothing, and another outcome than the one applied is a bug upstream (it
 * throws, so the event is retried and then dead-lettered for an operator).
 */
export class ReleasePayout {
  constructor(private readonly deps: { bookings: BookingStore; clock: Clock; logger: Logger }) {}

  async execute(scope: Scope, payoutId: string, outcome: PayoutOutcome): Promise<void> {
    validatePayoutId(payoutId);
    const { created } = await this.deps.bookings.releasePayout({
      scope,
      payoutId,
      outcome,
      createdAt: this.deps.clock.now(),
    });
    this.deps.logger.info(
      { payout_id: payoutId, livemode: scope.livemode, outcome, created },
      created ? 'payout released' : 'payout release repeated',
    );
  }
}
