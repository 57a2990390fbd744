import { renderBalance, type PublicBalance } from '@sika/public-api';

import type { LedgerClient, Scope } from './ports';
import { present } from './present';

/** Spec §4.5: the balance of the key's mode only. */
export function retrieveBalance(ledger: LedgerClient) {
  return async (scope: Scope): Promise<PublicBalance> => {
    const { balance } = await ledger.getBalance({ scope });
    return renderBalance(present(balance, 'balance'));
  };
}
