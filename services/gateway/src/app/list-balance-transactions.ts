import type { PublicBalanceTransaction } from '@sika/public-api';

import type { ListBalanceTransactionsQuery } from '../domain/list-queries';
import type { Ledger, PublicList, Scope } from './ports';

/** Spec §4.6: the movements of the key's mode, most recent first. */
export class ListBalanceTransactions {
  constructor(private readonly deps: { ledger: Ledger }) {}

  execute(scope: Scope, query: ListBalanceTransactionsQuery): Promise<PublicList<PublicBalanceTransaction>> {
    return this.deps.ledger.listBalanceTransactions(scope, query);
  }
}
