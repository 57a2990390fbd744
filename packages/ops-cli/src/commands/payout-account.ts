import { payoutsV1 } from '@sika/contracts';
import type { PayoutSchedule } from '@sika/rules';

import type { Services } from '../services';

export interface PayoutAccountView {
  merchant_id: string;
  livemode: boolean;
  /** Null in live mode until one is registered. */
  account: {
    status: 'awaiting_confirmation' | 'verified';
    alias_type: string;
    alias: string;
    holder_name: string;
    default_test_account: boolean;
  } | null;
  schedule?: PayoutSchedule;
}

const ALIAS_TYPES: Record<number, string> = {
  [payoutsV1.AliasType.ALIAS_TYPE_PHONE]: 'phone',
  [payoutsV1.AliasType.ALIAS_TYPE_MERCHANT_CODE]: 'merchant_code',
  [payoutsV1.AliasType.ALIAS_TYPE_ACCOUNT_KEY]: 'account_key',
};

const SCHEDULES: Record<PayoutSchedule, payoutsV1.PayoutSchedule> = {
  daily: payoutsV1.PayoutSchedule.PAYOUT_SCHEDULE_DAILY,
  manual: payoutsV1.PayoutSchedule.PAYOUT_SCHEDULE_MANUAL,
};

function scheduleOf(schedule: payoutsV1.PayoutSchedule): PayoutSchedule {
  return schedule === payoutsV1.PayoutSchedule.PAYOUT_SCHEDULE_MANUAL ? 'manual' : 'daily';
}

function viewOf(
  merchantId: string,
  livemode: boolean,
  account: payoutsV1.PayoutAccount | undefined,
): PayoutAccountView {
  return {
    merchant_id: merchantId,
    livemode,
    account:
      account === undefined
        ? null
        : {
            status:
              account.status === payoutsV1.PayoutAccountStatus.PAYOUT_ACCOUNT_STATUS_VERIFIED
                ? 'verified'
                : 'awaiting_confirmation',
            alias_type: ALIAS_TYPES[account.destination?.aliasType ?? 0] ?? 'unknown',
            alias: account.destination?.aliasMasked ?? '',
            holder_name: account.destination?.holderName ?? '',
            default_test_account: account.defaultTestAccount,
          },
  };
}

type Target = { merchantId: string; livemode: boolean };

/** Registers the payout account by its alias; the scheme's name lookup gives the holder name to confirm. */
export async function setPayoutAccount(
  services: Services,
  { merchantId, livemode, alias }: Target & { alias: string },
): Promise<PayoutAccountView> {
  const { account } = await services.setPayoutAccount({ scope: { merchantId, livemode }, alias });
  return viewOf(merchantId, livemode, account);
}

/** Confirms the holder name the lookup gave: the account is verified. */
export async function confirmPayoutAccount(
  services: Services,
  { merchantId, livemode, holderName }: Target & { holderName: string },
): Promise<PayoutAccountView> {
  const { account } = await services.confirmPayoutAccount({ scope: { merchantId, livemode }, holderName });
  return viewOf(merchantId, livemode, account);
}

export async function showPayoutAccount(services: Services, { merchantId, livemode }: Target) {
  const { account, schedule } = await services.getPayoutAccount({ scope: { merchantId, livemode } });
  return { ...viewOf(merchantId, livemode, account), schedule: scheduleOf(schedule) };
}

export async function setPayoutSchedule(
  services: Services,
  { merchantId, livemode, schedule }: Target & { schedule: PayoutSchedule },
): Promise<{ merchant_id: string; livemode: boolean; schedule: PayoutSchedule }> {
  const answer = await services.setPayoutSchedule({
    scope: { merchantId, livemode },
    schedule: SCHEDULES[schedule],
  });
  return { merchant_id: merchantId, livemode, schedule: scheduleOf(answer.schedule) };
}

export function describePayoutAccount(view: PayoutAccountView): string {
  const mode = view.livemode ? 'live' : 'test';
  const schedule = view.schedule === undefined ? [] : [`Schedule: ${view.schedule}`];
  if (view.account === null) {
    return [`No ${mode} payout account for ${view.merchant_id}: live payouts are refused.`, ...schedule].join(
      '\n',
    );
  }
  const { account } = view;
  const lines = [
    `${mode} payout account of ${view.merchant_id}: ${account.alias} (${account.alias_type})` +
      (account.default_test_account ? ', the default test account' : ''),
    `Holder name: ${account.holder_name}`,
    `Status: ${account.status}`,
  ];
  if (account.status === 'awaiting_confirmation') {
    lines.push(
      'Check that this is the merchant, then confirm it with:',
      `  sika-ops payout-account:confirm --merchant ${view.merchant_id} --mode ${mode} --holder-name '${account.holder_name}'`,
    );
  }
  return [...lines, ...schedule].join('\n');
}

export function describePayoutSchedule(result: {
  merchant_id: string;
  livemode: boolean;
  schedule: PayoutSchedule;
}) {
  const mode = result.livemode ? 'live' : 'test';
  return result.schedule === 'daily'
    ? `${result.merchant_id} (${mode}): the whole available balance is paid out every day at 06:00 Abidjan time.`
    : `${result.merchant_id} (${mode}): manual payouts only (POST /v1/payouts); the daily run skips it.`;
}
