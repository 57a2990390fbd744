import { ledgerV1, paymentsV1, payoutsV1 } from '@sika/contracts';

/**
 * A public enum value is the proto enum value without its prefix, in lower case
 * (PAYMENT_STATUS_REQUEST_SENT → request_sent). Built once from the generated enums so a value added to the
 * proto appears here without a second list to keep in step.
 */
function publicEnum<E extends Record<string, string | number>>(protoEnum: E, prefix: string) {
  const pairs = Object.entries(protoEnum).flatMap(([name, value]) =>
    typeof value === 'number' && name.startsWith(prefix) && !name.endsWith('_UNSPECIFIED')
      ? [[name.slice(prefix.length).toLowerCase(), value as E[keyof E]] as const]
      : [],
  );
  const names = pairs.map(([name]) => name) as [string, ...string[]];
  const toProto = new Map(pairs);
  const toPublic = new Map(pairs.map(([name, value]) => [value, name]));
  return {
    names,
    toPublic(value: E[keyof E]): string {
      const name = toPublic.get(value);
      if (name === undefined) throw new Error(`no public name for ${prefix}${String(value)}`);
      return name;
    },
    fromPublic(name: string): E[keyof E] | undefined {
      return toProto.get(name);
    },
  };
}

export const paymentStatus = publicEnum(paymentsV1.PaymentStatus, 'PAYMENT_STATUS_');
export const paymentMode = publicEnum(paymentsV1.PaymentMode, 'PAYMENT_MODE_');
export const attemptStatus = publicEnum(paymentsV1.AttemptStatus, 'ATTEMPT_STATUS_');
export const balanceTransactionType = publicEnum(
  ledgerV1.BalanceTransactionType,
  'BALANCE_TRANSACTION_TYPE_',
);
export const payoutStatus = publicEnum(payoutsV1.PayoutStatus, 'PAYOUT_STATUS_');
