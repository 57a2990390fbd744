import type { Scope } from '@sika/platform/pure';

import type { ChangeNotice, Notified } from './change-notice';
import type { PayoutAccountSummary, Peers } from './ports';

/**
 * The merchant recognises the holder's name the scheme gave: the account is verified. The account's owner
 * is told by email; in live mode that email also says the account's 24-hour cool-down starts now.
 */
export class ConfirmPayoutAccount {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'payouts'>; notice: ChangeNotice }) {}

  execute(scope: Scope, notified: Notified, holderName: string): Promise<PayoutAccountSummary> {
    const { peers, notice } = this.dependencies;
    const kind = scope.livemode ? 'payout_account_cooling_down' : 'payout_account_confirmed';
    return notice.around(scope, notified, kind, () => peers.payouts.confirmAccount(scope, holderName));
  }
}
