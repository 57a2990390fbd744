import { balanceFromTotals, type Balance } from '../domain/balance';
import type { Scope } from '@sika/platform/pure';
import type { BalanceStore } from './ports';

/** A merchant the ledger has never credited has a zero balance, like any merchant in a mode it never used. */
export class GetBalance {
  constructor(private readonly deps: { balances: BalanceStore }) {}

  async execute(scope: Scope): Promise<Balance> {
    return balanceFromTotals(await this.deps.balances.merchantAccountTotals(scope));
  }
}
