import { ledgerV1, type commonV1 } from '@sika/contracts';
import { AppError, isId } from '@sika/platform';
import type { Adjustment } from '../../domain/adjustment';
import type { BalanceTransaction, BalanceTransactionType } from '../../domain/balance-transaction';
import type { Scope } from '@sika/platform/pure';

const Proto = ledgerV1.BalanceTransactionType;

const TO_PROTO: Record<BalanceTransactionType, ledgerV1.BalanceTransactionType> = {
  payment: Proto.BALANCE_TRANSACTION_TYPE_PAYMENT,
  fee: Proto.BALANCE_TRANSACTION_TYPE_FEE,
  payout: Proto.BALANCE_TRANSACTION_TYPE_PAYOUT,
  payout_reversal: Proto.BALANCE_TRANSACTION_TYPE_PAYOUT_REVERSAL,
  adjustment: Proto.BALANCE_TRANSACTION_TYPE_ADJUSTMENT,
};

const FROM_PROTO = new Map(
  Object.entries(TO_PROTO).map(([type, proto]) => [proto, type as BalanceTransactionType]),
);

/** UNSPECIFIED means "no filter"; a number outside the enum (a newer client) is refused. */
export function typeFilterFromProto(
  type: ledgerV1.BalanceTransactionType,
): BalanceTransactionType | undefined {
  if (type === Proto.BALANCE_TRANSACTION_TYPE_UNSPECIFIED) return undefined;
  const known = FROM_PROTO.get(type);
  if (known === undefined)
    throw new AppError('parameter_invalid', 'Unknown balance transaction type.', { param: 'type' });
  return known;
}

export function scopeFromProto(scope: commonV1.Scope | undefined): Scope {
  if (scope === undefined || !isId('mer', scope.merchantId)) {
    throw new AppError('parameter_invalid', 'scope.merchant_id must be a merchant id (mer_…).', {
      param: 'scope.merchant_id',
    });
  }
  return { merchantId: scope.merchantId, livemode: scope.livemode };
}

export function balanceTransactionToProto(movement: BalanceTransaction): ledgerV1.BalanceTransaction {
  return {
    id: movement.id,
    type: TO_PROTO[movement.type],
    amount: movement.amount,
    currency: movement.currency,
    sourceId: movement.sourceId,
    livemode: movement.livemode,
    createdAt: movement.createdAt,
  };
}

export function adjustmentToProto(adjustment: Adjustment): ledgerV1.Adjustment {
  return {
    id: adjustment.id,
    merchantId: adjustment.merchantId,
    livemode: adjustment.livemode,
    amount: adjustment.amount,
    reason: adjustment.reason,
    requestedBy: adjustment.requestedBy,
    idempotencyKey: adjustment.idempotencyKey,
    createdAt: adjustment.createdAt,
  };
}
