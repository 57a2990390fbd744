import type { BalanceStore } from './ports';

/** What Sika owes customers in a mode and has not returned yet. */
export class GetRefundsPayable {
  constructor(private readonly balances: BalanceStore) {}

  execute(livemode: boolean): Promise<bigint> {
    return this.balances.systemAccountTotal(livemode, 'refunds_payable');
  }
}
