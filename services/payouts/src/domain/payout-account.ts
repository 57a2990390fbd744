import { AppError } from '@sika/platform/pure';
import type { PayoutAliasType } from '@sika/rules';
import type { Destination } from './payout';

export type PayoutAccountStatus = 'awaiting_confirmation' | 'verified';

export interface PayoutAccount {
  merchantId: string;
  livemode: boolean;
  status: PayoutAccountStatus;
  aliasType: PayoutAliasType;
  alias: string;
  aliasMasked: string;
  holderName: string;
  holderCountry: string | null;
  updatedAt: Date;
  /** When its holder name was last confirmed; null while awaiting confirmation. */
  verifiedAt: Date | null;
  /** True for test mode's account that every merchant has without registering one. */
  defaultTestAccount: boolean;
}

/** Test mode's default payout account: the simulator's account that always pays. */
export interface TestPayoutAccount {
  aliasType: PayoutAliasType;
  alias: string;
  aliasMasked: string;
  holderName: string;
}

/** The account shown for a merchant in a mode: the registered one, else in test mode the default test account. */
export function payoutAccountOf(
  merchantId: string,
  livemode: boolean,
  registered: PayoutAccount | undefined,
  testAccount: TestPayoutAccount,
): PayoutAccount | undefined {
  if (registered || livemode) return registered;
  return {
    merchantId,
    livemode,
    status: 'verified',
    ...testAccount,
    holderCountry: null,
    updatedAt: new Date(0),
    verifiedAt: new Date(0),
    defaultTestAccount: true,
  };
}

/**
 * How long a live payout account receives nothing after its confirmation: a session hijacked to swap the account
 * gives its owner a day to notice and undo it before any money leaves (Sika's decision; the spec is silent).
 */
export const LIVE_ACCOUNT_COOLDOWN_MS = 24 * 3_600_000;

/**
 * Spec §4.7: where a new payout goes, checked before the balance. The registered account once verified (live:
 * and past its cool-down at `now`); in test mode, until then, the default test account; live mode without a
 * verified account has none.
 */
export function destinationFor(
  livemode: boolean,
  registered: PayoutAccount | undefined,
  testAccount: TestPayoutAccount,
  now: Date,
): Destination {
  const account = registered?.status === 'verified' ? registered : livemode ? undefined : testAccount;
  if (!account) {
    throw new AppError(
      'payout_account_missing',
      'Live payouts need a verified payout account: register one in the dashboard and confirm its holder name.',
    );
  }
  const coolingUntil =
    livemode && registered?.verifiedAt ? registered.verifiedAt.getTime() + LIVE_ACCOUNT_COOLDOWN_MS : 0;
  if (now.getTime() < coolingUntil) {
    throw new AppError(
      'payout_account_cooling_down',
      `A new live payout account receives payouts 24 hours after its confirmation: from ${new Date(coolingUntil).toISOString()}.`,
    );
  }
  return {
    aliasType: account.aliasType,
    alias: account.alias,
    aliasMasked: account.aliasMasked,
    holderName: account.holderName,
  };
}
