import type { PublicBalance } from '@sika/public-api';

import type { Ledger, Scope } from './ports';

/** Spec §4.5: the balance of the key's mode only. */
export class RetrieveBalance {
  constructor(private readonly deps: { ledger: Ledger }) {}

  execute(scope: Scope): Promise<PublicBalance> {
    return this.deps.ledger.balance(scope);
  }
}
