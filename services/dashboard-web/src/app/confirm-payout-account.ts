import type { PayoutAccountSummary, Peers } from './ports';
import type { Scope } from './scope';

/** The merchant recognises the holder's name the scheme gave: the account is verified. */
export class ConfirmPayoutAccount {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'payouts'> }) {}

  execute(scope: Scope, holderName: string): Promise<PayoutAccountSummary> {
    return this.dependencies.peers.payouts.confirmAccount(scope, holderName);
  }
}
