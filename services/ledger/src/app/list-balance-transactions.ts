import { AppError, pageLimit } from '@sika/platform';
import type { BalanceTransaction, BalanceTransactionType } from '../domain/balance-transaction';
import type { Scope } from '@sika/platform/pure';
import type { BalanceStore } from './ports';

export interface ListBalanceTransactionsInput {
  scope: Scope;
  /** 0 for the default. */
  limit: number;
  startingAfter?: string;
  type?: BalanceTransactionType;
  createdFrom?: Date;
  createdTo?: Date;
}

export interface BalanceTransactionPage {
  items: BalanceTransaction[];
  hasMore: boolean;
}

/**
 * The merchant's movements in one mode, most recent first. `starting_after` must be a movement of the same
 * merchant and mode: any other id, including one of another merchant, is refused the same way as an id that
 * does not exist.
 */
export class ListBalanceTransactions {
  constructor(private readonly deps: { balances: BalanceStore }) {}

  async execute(input: ListBalanceTransactionsInput): Promise<BalanceTransactionPage> {
    const { balances } = this.deps;
    const limit = pageLimit(input.limit);
    const after =
      input.startingAfter === undefined
        ? undefined
        : await balances.findCursor(input.scope, input.startingAfter);
    if (input.startingAfter !== undefined && after === undefined) {
      throw new AppError('resource_missing', `No such balance transaction: ${input.startingAfter}.`, {
        param: 'starting_after',
      });
    }
    const rows = await balances.listBalanceTransactions({
      scope: input.scope,
      take: limit + 1,
      ...(after && { after }),
      ...(input.type && { type: input.type }),
      ...(input.createdFrom && { createdFrom: input.createdFrom }),
      ...(input.createdTo && { createdTo: input.createdTo }),
    });
    return { items: rows.slice(0, limit), hasMore: rows.length > limit };
  }
}
