import { AppError } from '@sika/platform';
import { parsePayoutAlias } from '@sika/rules';
import type { PayoutAccount } from '../domain/payout-account';
import type { PayeeDirectory, PayeeLookupLog, Scope, UseCaseContext } from './ports';

/**
 * Registers a merchant's payout account in a mode. The API Business pays only aliases, so the alias is looked up
 * in the scheme's directory (no money moves); the account then awaits the confirmation of the holder's name it
 * returned (ConfirmPayoutAccount). Until then live payouts are refused, and test payouts go to the default test
 * account. An alias no account answers to is `alias_unknown`. Every look-up is recorded first (the audit of who
 * asked for whose name, and when); live ones past their limits are refused before the bank is asked.
 */
export class SetPayoutAccount {
  constructor(private readonly deps: UseCaseContext & { payees: PayeeDirectory; lookups: PayeeLookupLog }) {}

  async execute(scope: Scope, rawAlias: string): Promise<PayoutAccount> {
    const { payees, lookups, accounts, clock, logger } = this.deps;
    const alias = parsePayoutAlias(rawAlias);
    if (!alias) {
      throw new AppError(
        'parameter_invalid',
        'The alias must be a phone number (+, country code, number), a merchant code, or a 36-character account key.',
        { param: 'alias' },
      );
    }
    const lookup = await lookups.begin({ ...scope, aliasMasked: alias.masked, requestedAt: clock.now() });
    if ('refused' in lookup) {
      logger.warn({ ...scope, limit: lookup.refused }, 'payee look-up refused: limit reached');
      throw new AppError(
        'rate_limited',
        `Too many payout account look-ups. Retry after ${lookup.retryAfterSeconds} s.`,
      );
    }
    let found: Awaited<ReturnType<PayeeDirectory['lookUp']>>;
    try {
      found = await payees.lookUp(scope.livemode, alias.schemeValue);
    } catch (error) {
      await lookups.finish(lookup.id, 'failed');
      throw error;
    }
    await lookups.finish(lookup.id, found.found ? 'found' : 'unknown');
    if (!found.found) {
      logger.info({ alias: alias.masked, reason_code: found.reasonCode }, 'payout account alias unknown');
      throw new AppError('alias_unknown', 'No account answers to this alias in the scheme.', {
        param: 'alias',
      });
    }
    const now = clock.now();
    const account: PayoutAccount = {
      ...scope,
      status: 'awaiting_confirmation',
      aliasType: alias.type,
      alias: alias.schemeValue,
      aliasMasked: alias.masked,
      holderName: found.holderName,
      holderCountry: found.holderCountry,
      updatedAt: now,
      verifiedAt: null,
      defaultTestAccount: false,
    };
    await accounts.save(account, now);
    logger.info({ ...scope, alias: alias.masked, alias_type: alias.type }, 'payout account registered');
    return account;
  }
}
