import type { Scope } from '@sika/platform/pure';
import type { PublicBalance, PublicPayout } from '@sika/public-api';
import type { PayoutSchedule } from '@sika/rules';

import type { PayoutAccountSummary, Peers } from './ports';

export interface PayoutsView {
  account: PayoutAccountSummary | undefined;
  schedule: PayoutSchedule;
  balance: PublicBalance;
  payouts: PublicPayout[];
  hasMore: boolean;
}

/** The payouts page: where the money goes, when, what is available to pay out now, and the payouts so far. */
export class ShowPayouts {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'payouts' | 'ledger'> }) {}

  async execute(scope: Scope, page: { limit: number; startingAfter?: string }): Promise<PayoutsView> {
    const { payouts, ledger } = this.dependencies.peers;
    const [{ account, schedule }, balance, list] = await Promise.all([
      payouts.account(scope),
      ledger.balance(scope),
      payouts.list(scope, page),
    ]);
    return { account, schedule, balance, payouts: list.items, hasMore: list.hasMore };
  }
}
