import { ledgerV1 } from '@sika/contracts';
import {
  balanceTransactionType,
  renderBalanceTransaction,
  renderList,
  type PublicBalanceTransaction,
} from '@sika/public-api';

import type { ListBalanceTransactionsQuery } from '../domain/list-queries';
import { pageAndWindow } from './list-request';
import type { LedgerClient, Scope } from './ports';

/** Spec §4.6: the movements of the key's mode, most recent first. */
export function listBalanceTransactions(ledger: LedgerClient) {
  return async (scope: Scope, query: ListBalanceTransactionsQuery) => {
    const response = await ledger.listBalanceTransactions({
      scope,
      ...pageAndWindow(query),
      type:
        query.type === undefined
          ? ledgerV1.BalanceTransactionType.BALANCE_TRANSACTION_TYPE_UNSPECIFIED
          : (balanceTransactionType.fromPublic(query.type) ??
            ledgerV1.BalanceTransactionType.BALANCE_TRANSACTION_TYPE_UNSPECIFIED),
    });
    return renderList<PublicBalanceTransaction>(
      response.balanceTransactions.map(renderBalanceTransaction),
      response.hasMore,
    );
  };
}
