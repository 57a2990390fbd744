import type { Clock, Logger } from '@sika/platform';
import type { BalanceTransaction } from '../domain/balance-transaction';
import { validatePayoutId, type PayoutOutcome } from '../domain/payout';
import type { Scope } from '../domain/scope';
import type { LedgerRepository } from './ports';

/**
 * Ends a payout's reservation once its transfer has an outcome: paid, the money leaves `pending_payout` for
 * good; failed, it returns to `available` with a `payout_reversal` movement. A repeat changes nothing.
 */
export class ReleasePayout {
  constructor(private readonly deps: { repository: LedgerRepository; clock: Clock; logger: Logger }) {}

  async execute(
    scope: Scope,
    payoutId: string,
    outcome: PayoutOutcome,
  ): Promise<BalanceTransaction | undefined> {
    validatePayoutId(payoutId);
    const { created, reversal } = await this.deps.repository.releasePayout({
      scope,
      payoutId,
      outcome,
      createdAt: this.deps.clock.now(),
    });
    this.deps.logger.info(
      { payout_id: payoutId, livemode: scope.livemode, outcome, created },
      created ? 'payout released' : 'payout release repeated',
    );
    return reversal;
  }
}
