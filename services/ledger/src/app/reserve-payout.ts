import { AppError, type Clock, type Logger } from '@sika/platform';
import type { BalanceTransaction } from '../domain/balance-transaction';
import { planPayoutReservation, validatePayoutId, validateRequestedAmount } from '../domain/payout';
import type { Scope } from '@sika/platform/pure';
import type { BookingStore } from './ports';

/**
 * Reserves a payout's amount: the negative `payout` movement moves it from `available` to `pending_payout`.
 * payouts calls this before it answers the payout and retries it until answered, so a repeat returns the
 * movement of the first call; one of another merchant or amount is refused.
 */
export class ReservePayout {
  constructor(private readonly deps: { bookings: BookingStore; clock: Clock; logger: Logger }) {}

  async execute(scope: Scope, payoutId: string, requested: bigint | undefined): Promise<BalanceTransaction> {
    validatePayoutId(payoutId);
    validateRequestedAmount(requested);
    const { created, movement } = await this.deps.bookings.reservePayout({
      scope,
      payoutId,
      createdAt: this.deps.clock.now(),
      plan: (available) => planPayoutReservation(available, requested),
    });
    const sameRequest =
      movement.merchantId === scope.merchantId &&
      movement.livemode === scope.livemode &&
      (requested === undefined || movement.amount === -requested);
    if (!sameRequest) {
      throw new AppError(
        'idempotency_key_reused',
        `Payout ${payoutId} was already reserved with a different amount or scope.`,
        { param: 'payout_id' },
      );
    }
    this.deps.logger.info(
      { payout_id: payoutId, livemode: scope.livemode, amount: -movement.amount, created },
      created ? 'payout reserved' : 'payout reservation repeated',
    );
    return movement;
  }
}
