import type { PublicPayout } from '@sika/public-api';

import type { Payouts, Scope } from './ports';

/** Spec §4.9: another merchant's or mode's payout is the same 404 as a missing one. */
export class RetrievePayout {
  constructor(private readonly deps: { payouts: Payouts }) {}

  execute(scope: Scope, payoutId: string): Promise<PublicPayout> {
    return this.deps.payouts.retrieve(scope, payoutId);
  }
}
