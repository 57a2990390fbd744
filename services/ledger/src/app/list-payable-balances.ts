import { AppError } from '@sika/platform';
import type { BalanceStore, PayableBalance } from './ports';

const MAX_LIMIT = 1000;

/** The daily payout's worklist: merchants of a mode with something available, in merchant id order. */
export class ListPayableBalances {
  constructor(private readonly balances: BalanceStore) {}

  async execute(query: {
    livemode: boolean;
    startingAfter?: string;
    limit: number;
  }): Promise<{ items: PayableBalance[]; hasMore: boolean }> {
    if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_LIMIT) {
      throw new AppError('parameter_invalid', `limit must be between 1 and ${MAX_LIMIT}.`, {
        param: 'limit',
      });
    }
    const rows = await this.balances.listPayableBalances({
      livemode: query.livemode,
      ...(query.startingAfter !== undefined && { after: query.startingAfter }),
      take: query.limit + 1,
    });
    return { items: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
  }
}
