import { AppError, pageLimit } from '@sika/platform';
import type { VisiblePayout } from '../domain/payout';
import type { PayoutListQuery, Scope, UseCaseContext } from './ports';

export interface ListPayoutsCommand {
  scope: Scope;
  /** 0 when not given. */
  limit: number;
  startingAfter?: string;
  status?: PayoutListQuery['status'];
  createdFrom?: Date;
  createdTo?: Date;
}

/** GET /v1/payouts (spec §4.8): most recent first; starting_after must name a payout of the same scope. */
export class ListPayouts {
  constructor(private readonly deps: UseCaseContext) {}

  async execute(command: ListPayoutsCommand): Promise<{ payouts: VisiblePayout[]; hasMore: boolean }> {
    const { payouts } = this.deps;
    const take = pageLimit(command.limit);
    if (
      command.startingAfter !== undefined &&
      !(await payouts.findInScope(command.scope, command.startingAfter))
    ) {
      throw new AppError('resource_missing', 'No such payout.', { param: 'starting_after' });
    }
    return payouts.list({ ...command, take });
  }
}
