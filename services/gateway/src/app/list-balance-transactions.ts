import { ledgerV1 } from '@sika/contracts';
import {
  balanceTransactionType,
  renderBalanceTransaction,
  renderList,
  type PublicBalanceTransaction,
} from '@sika/public-api';

import type { ListBalanceTransactionsQuery } from '../domain/list-queries';
import type { LedgerClient, Scope } from './ports';

const optionalDate = (text: string | undefined) => (text === undefined ? undefined : new Date(text));

/** Spec §4.6: the movements of the key's mode, most recent first. */
export function listBalanceTransactions(ledger: LedgerClient) {
  return async (scope: Scope, query: ListBalanceTransactionsQuery) => {
    const response = await ledger.listBalanceTransactions({
      scope,
      page: { limit: query.limit, startingAfter: query.starting_after },
      type:
        query.type === undefined
          ? ledgerV1.BalanceTransactionType.BALANCE_TRANSACTION_TYPE_UNSPECIFIED
          : (balanceTransactionType.fromPublic(query.type) ??
            ledgerV1.BalanceTransactionType.BALANCE_TRANSACTION_TYPE_UNSPECIFIED),
      createdFrom: optionalDate(query.created_from),
      createdTo: optionalDate(query.created_to),
    });
    return renderList<PublicBalanceTransaction>(
      response.balanceTransactions.map(renderBalanceTransaction),
      response.hasMore,
    );
  };
}
