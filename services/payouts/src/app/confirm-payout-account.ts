import { AppError } from '@sika/platform';
import type { PayoutAccount } from '../domain/payout-account';
import type { Scope, UseCaseContext } from './ports';

/**
 * The merchant confirms that the holder's name the scheme gave is theirs: the account is verified. The name
 * must be the one shown, so a confirmation never verifies an account registered again since.
 */
export class ConfirmPayoutAccount {
  constructor(private readonly deps: UseCaseContext) {}

  async execute(scope: Scope, holderName: string): Promise<PayoutAccount> {
    const { accounts, clock, logger } = this.deps;
    const current = await accounts.find(scope);
    if (!current) {
      throw new AppError('resource_missing', 'No payout account is registered in this mode.', {
        param: 'scope',
      });
    }
    if (current.status === 'verified' && current.holderName === holderName) return current;
    const confirmed = await accounts.confirm(scope, holderName, clock.now());
    if (!confirmed) {
      throw new AppError(
        'parameter_invalid',
        'holder_name is not the name the scheme gave for the registered payout account.',
        { param: 'holder_name' },
      );
    }
    logger.info({ ...scope, alias: confirmed.aliasMasked }, 'payout account verified');
    return confirmed;
  }
}
