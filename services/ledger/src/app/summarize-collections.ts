import { validateCollectionRange, type DailyCollection } from '../domain/collections';
import type { Scope } from '@sika/platform/pure';
import type { BalanceStore } from './ports';

/** The merchant's collections per day over a bounded range, for the dashboard's chart. */
export class SummarizeCollections {
  constructor(private readonly deps: { balances: BalanceStore }) {}

  async execute(scope: Scope, range: { from?: Date; to?: Date }): Promise<DailyCollection[]> {
    return this.deps.balances.dailyCollections(scope, validateCollectionRange(range));
  }
}
