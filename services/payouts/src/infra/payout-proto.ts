import { payoutsV1 } from '@sika/contracts';
import type { PayoutAliasType, PayoutSchedule } from '@sika/rules';
import type { PayoutAccount } from '../domain/payout-account';
import type { Destination, VisiblePayout } from '../domain/payout';

const STATUS: Record<VisiblePayout['status'], payoutsV1.PayoutStatus> = {
  pending: payoutsV1.PayoutStatus.PAYOUT_STATUS_PENDING,
  paid: payoutsV1.PayoutStatus.PAYOUT_STATUS_PAID,
  failed: payoutsV1.PayoutStatus.PAYOUT_STATUS_FAILED,
};

const METHOD: Record<VisiblePayout['method'], payoutsV1.PayoutMethod> = {
  automatic: payoutsV1.PayoutMethod.PAYOUT_METHOD_AUTOMATIC,
  manual: payoutsV1.PayoutMethod.PAYOUT_METHOD_MANUAL,
};

const ALIAS_TYPE: Record<PayoutAliasType, payoutsV1.AliasType> = {
  phone: payoutsV1.AliasType.ALIAS_TYPE_PHONE,
  merchant_code: payoutsV1.AliasType.ALIAS_TYPE_MERCHANT_CODE,
  account_key: payoutsV1.AliasType.ALIAS_TYPE_ACCOUNT_KEY,
};

export const SCHEDULE: Record<PayoutSchedule, payoutsV1.PayoutSchedule> = {
  daily: payoutsV1.PayoutSchedule.PAYOUT_SCHEDULE_DAILY,
  manual: payoutsV1.PayoutSchedule.PAYOUT_SCHEDULE_MANUAL,
};

export const statusToProto = (status: VisiblePayout['status']): payoutsV1.PayoutStatus => STATUS[status];

/** Never the alias in clear: only its masked form leaves the service. */
function destinationToProto(destination: Destination): payoutsV1.PayoutDestination {
  return {
    aliasType: ALIAS_TYPE[destination.aliasType],
    aliasMasked: destination.aliasMasked,
    holderName: destination.holderName,
  };
}

export function payoutToProto(payout: VisiblePayout): payoutsV1.Payout {
  return {
    id: payout.id,
    merchantId: payout.merchantId,
    livemode: payout.livemode,
    amount: payout.amount,
    currency: payout.currency,
    status: STATUS[payout.status],
    method: METHOD[payout.method],
    destination: destinationToProto(payout.destination),
    ...(payout.failureCode !== null && { failureCode: payout.failureCode }),
    createdAt: payout.createdAt,
    ...(payout.paidAt !== null && { paidAt: payout.paidAt }),
  };
}

export function payoutAccountToProto(account: PayoutAccount): payoutsV1.PayoutAccount {
  return {
    merchantId: account.merchantId,
    livemode: account.livemode,
    status:
      account.status === 'verified'
        ? payoutsV1.PayoutAccountStatus.PAYOUT_ACCOUNT_STATUS_VERIFIED
        : payoutsV1.PayoutAccountStatus.PAYOUT_ACCOUNT_STATUS_AWAITING_CONFIRMATION,
    destination: destinationToProto(account),
    updatedAt: account.updatedAt,
    defaultTestAccount: account.defaultTestAccount,
  };
}
