import { AppError } from '@sika/platform';
import type { VisiblePayout } from '../domain/payout';
import type { Scope, UseCaseContext } from './ports';

/** Another merchant's or mode's payout is the same 404 as one that does not exist. */
export class GetPayout {
  constructor(private readonly deps: UseCaseContext) {}

  async execute(scope: Scope, payoutId: string): Promise<VisiblePayout> {
    const payout = await this.deps.payouts.findInScope(scope, payoutId);
    if (!payout) {
      throw new AppError('resource_missing', `No such payout: '${payoutId}'.`, { param: 'id' });
    }
    return payout;
  }
}
