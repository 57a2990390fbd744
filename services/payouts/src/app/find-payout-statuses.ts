import { AppError } from '@sika/platform';
import type { UseCaseContext } from './ports';

/** The most ids one question may carry: the watch asks in pages of this size. */
export const MAX_PAYOUT_IDS = 1_000;

/**
 * The status of each of these payouts, internal ones included (`reserving`, `refused`), whatever their mode:
 * the ledger's continuous watch of the books asks it of the payouts it reserved, released or reversed, which
 * must agree with what payouts decided.
 */
export class FindPayoutStatuses {
  constructor(private readonly deps: UseCaseContext) {}

  execute(payoutIds: readonly string[]): Promise<{ payoutId: string; status: string }[]> {
    if (payoutIds.length > MAX_PAYOUT_IDS) {
      throw new AppError('parameter_invalid', `At most ${MAX_PAYOUT_IDS} payout ids at once.`, {
        param: 'payout_ids',
      });
    }
    return this.deps.payouts.findStatuses(payoutIds);
  }
}
