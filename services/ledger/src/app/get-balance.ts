import { balanceFromTotals, type Balance } from '../domain/balance';
import type { Scope } from '../domain/scope';
import type { LedgerRepository } from './ports';

/** A merchant the ledger has never credited has a zero balance, like any merchant in a mode it never used. */
export function getBalance({ repository }: { repository: LedgerRepository }) {
  return async (scope: Scope): Promise<Balance> =>
    balanceFromTotals(await repository.merchantAccountTotals(scope));
}

export type GetBalance = ReturnType<typeof getBalance>;
