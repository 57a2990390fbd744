import { balanceFromTotals, type Balance } from '../domain/balance';
import type { Scope } from '../domain/scope';
import type { LedgerRepository } from './ports';

/** A merchant the ledger has never credited has a zero balance, like any merchant in a mode it never used. */
export class GetBalance {
  constructor(private readonly deps: { repository: LedgerRepository }) {}

  async execute(scope: Scope): Promise<Balance> {
    return balanceFromTotals(await this.deps.repository.merchantAccountTotals(scope));
  }
}
