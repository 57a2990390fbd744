import type { PayoutReserver } from './payout-reserver';
import type { UseCaseContext } from './ports';

const BATCH = 50;

/**
 * Finishes reservations their request left behind (it crashed, or the ledger did not answer): the payout is
 * taken over and reserved again. The ledger answers a payout it had reserved with that reservation, so a
 * reservation is never made twice; one it refuses leaves no payout.
 */
export class SweepReservations {
  constructor(private readonly deps: UseCaseContext & { reserver: PayoutReserver }) {}

  /** How many reservations this batch finished or gave up. */
  async execute(): Promise<number> {
    const { payouts, reserver, clock, logger } = this.deps;
    const now = clock.now();
    let handled = 0;
    for (const payoutId of await payouts.abandonedReservations(now, BATCH)) {
      const payout = await payouts.takeOverReservation(payoutId, reserver.leaseUntil(now), now);
      if (!payout) continue;
      try {
        await reserver.reserve(payout);
        handled += 1;
      } catch (error) {
        logger.warn({ payout_id: payoutId, err: error }, 'left-behind reservation not finished');
      }
    }
    return handled;
  }
}
