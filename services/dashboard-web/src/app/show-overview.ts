import type { Scope } from '@sika/platform/pure';
import type { PublicBalance, PublicPayment } from '@sika/public-api';

import type { Peers } from './ports';

export interface Overview {
  /** The account's id, for support and operators (`sika-ops merchant:show`). */
  merchantId: string;
  balance: PublicBalance;
  recentPayments: PublicPayment[];
}

const RECENT_PAYMENTS = 5;

/** The home page: the balance in this mode and the latest payments, read at once. */
export class ShowOverview {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'ledger' | 'payments'> }) {}

  async execute(scope: Scope): Promise<Overview> {
    const { ledger, payments } = this.dependencies.peers;
    const [balance, recent] = await Promise.all([
      ledger.balance(scope),
      payments.list(scope, {}, RECENT_PAYMENTS),
    ]);
    return { merchantId: scope.merchantId, balance, recentPayments: recent.items };
  }
}
