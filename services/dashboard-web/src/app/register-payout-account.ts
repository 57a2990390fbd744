import { AppError } from '@sika/platform';
import type { Scope } from '@sika/platform/pure';
import { parsePayoutAlias, PAYOUT_ALIAS_TYPES, type PayoutAliasType } from '@sika/rules';

import type { ChangeNotice, Notified } from './change-notice';
import type { PayoutAccountSummary, Peers } from './ports';

const isAliasType = (value: string): value is PayoutAliasType =>
  (PAYOUT_ALIAS_TYPES as readonly string[]).includes(value);

/**
 * The merchant names the kind of account and its alias; payouts looks the alias up in the scheme's directory
 * and answers the holder's name, which the merchant then confirms. The kind is checked against the alias so
 * that a merchant code typed where a phone number was meant is caught here, not paid to someone else. The
 * account's owner is told by email.
 */
export class RegisterPayoutAccount {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'payouts'>; notice: ChangeNotice }) {}

  execute(
    scope: Scope,
    notified: Notified,
    input: { type: string; alias: string },
  ): Promise<PayoutAccountSummary> {
    if (!isAliasType(input.type)) {
      throw new AppError('parameter_invalid', 'Choose the kind of account.', { param: 'alias_type' });
    }
    const parsed = parsePayoutAlias(input.alias);
    if (parsed !== undefined && parsed.type !== input.type) {
      throw new AppError('parameter_invalid', `This alias is not a ${input.type.replace('_', ' ')}.`, {
        param: 'alias',
      });
    }
    const { peers, notice } = this.dependencies;
    return notice.around(scope, notified, 'payout_account_set', () =>
      peers.payouts.setAccount(scope, input.alias),
    );
  }
}
