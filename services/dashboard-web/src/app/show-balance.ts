import type { Clock } from '@sika/platform';
import type { Scope } from '@sika/platform/pure';
import type { PublicBalance, PublicBalanceTransaction } from '@sika/public-api';

import { chartDays, chartRange, type ChartDay } from '../domain/collection-chart';
import type { ListFilters } from '../domain/list-filters';
import type { Peers } from './ports';

export const MOVEMENTS_PAGE_SIZE = 20;

export interface BalanceView {
  balance: PublicBalance;
  movements: PublicBalanceTransaction[];
  hasMore: boolean;
  /** Every day of the last 30, today included. */
  chart: ChartDay[];
}

/** The balance page: what is available and being paid out, what came in per day, and the movements. */
export class ShowBalance {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'ledger'>; clock: Clock }) {}

  async execute(scope: Scope, filters: ListFilters): Promise<BalanceView> {
    const { peers, clock } = this.dependencies;
    const range = chartRange(clock.now());
    const [balance, movements, collections] = await Promise.all([
      peers.ledger.balance(scope),
      peers.ledger.movements(scope, filters, MOVEMENTS_PAGE_SIZE),
      peers.ledger.collections(scope, range),
    ]);
    return {
      balance,
      movements: movements.items,
      hasMore: movements.hasMore,
      chart: chartDays(range, collections),
    };
  }
}
