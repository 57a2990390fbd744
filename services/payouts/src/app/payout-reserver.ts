import { AppError } from '@sika/platform';
import {
  isVisible,
  RESERVE_LEASE_MS,
  transferReasonOf,
  type Payout,
  type VisiblePayout,
} from '../domain/payout';
import type { Ledger, UseCaseContext } from './ports';

/**
 * The second step of every payout, manual or automatic: the ledger reserves its amount (idempotent on the
 * payout id), then the payout becomes `pending` and its transfer is requested. A refused reservation leaves no
 * payout behind (`refused`, never shown). Any other failure leaves the payout `reserving`: the sweeper takes it
 * over once its lease runs out, and the ledger answers it with the first reservation if there was one.
 */
export class PayoutReserver {
  constructor(private readonly deps: UseCaseContext & { ledger: Ledger }) {}

  async reserve(payout: Payout): Promise<VisiblePayout> {
    const { ledger, payouts, logger } = this.deps;
    const scope = { merchantId: payout.merchantId, livemode: payout.livemode };
    let amount: bigint;
    try {
      amount = await ledger.reservePayout(scope, payout.id, payout.requestedAmount);
    } catch (error) {
      if (error instanceof AppError && error.code === 'balance_insufficient') {
        await payouts.markRefused(payout.id);
        logger.info({ payout_id: payout.id, method: payout.method }, 'payout refused: balance insufficient');
      }
      throw error;
    }
    // The payout as this call made it pending; read back only when another call got there first.
    const marked = await payouts.markReserved(payout.id, amount, transferReasonOf);
    const reserved = marked && isVisible(marked) ? marked : await payouts.findInScope(scope, payout.id);
    if (!reserved) throw new Error(`payout ${payout.id} was reserved but is not visible`);
    logger.info(
      { payout_id: payout.id, amount, method: payout.method, livemode: payout.livemode },
      'payout pending',
    );
    return reserved;
  }

  /** Until when a payout recorded now is its request's to reserve. */
  leaseUntil(now: Date): Date {
    return new Date(now.getTime() + RESERVE_LEASE_MS);
  }
}
