import type { PayoutSchedule } from '@sika/rules';
import { payoutAccountOf, type PayoutAccount } from '../domain/payout-account';
import type { Scope, UseCaseContext } from './ports';

/** The payout account and schedule of a merchant in a mode, as the dashboard and the CLI show them. */
export class GetPayoutAccount {
  constructor(private readonly deps: UseCaseContext) {}

  async execute(scope: Scope): Promise<{ account: PayoutAccount | undefined; schedule: PayoutSchedule }> {
    const { accounts, testAccount } = this.deps;
    const registered = await accounts.find(scope);
    return {
      account: payoutAccountOf(scope.merchantId, scope.livemode, registered, testAccount),
      schedule: await accounts.schedule(scope),
    };
  }
}
