import { AppError, isId, type Scope } from '@sika/platform/pure';
import { merchantAccount, systemAccount } from './accounts';
import type { BalanceTransaction, BalanceTransactionType } from './balance-transaction';
import { assertBalanced, type Posting } from './double-entry';

/** A succeeded payment to credit: the gross amount and Sika's fee on it. */
export interface PaymentCredit {
  paymentId: string;
  amount: bigint;
  feeAmount: bigint;
}

export interface PlannedMovement {
  type: BalanceTransactionType;
  amount: bigint;
}

export interface PaymentCreditPlan {
  postings: Posting[];
  /** In the order they happen: the gross credit, then the fee taken from it. */
  movements: PlannedMovement[];
}

/** The rules every credit obeys; with fee <= amount the merchant's balance can never go negative. */
export function validatePaymentCredit(credit: PaymentCredit): void {
  if (!isId('pay', credit.paymentId)) {
    throw new AppError('parameter_invalid', 'payment_id must be a payment id (pay_…).', {
      param: 'payment_id',
    });
  }
  if (credit.amount < 1n) {
    throw new AppError('parameter_invalid', 'amount must be at least 1.', { param: 'amount' });
  }
  if (credit.feeAmount < 0n || credit.feeAmount > credit.amount) {
    throw new AppError('parameter_invalid', 'fee_amount must be between 0 and amount.', {
      param: 'fee_amount',
    });
  }
}

/**
 * The gross amount comes from the scheme into the merchant's available balance; the fee goes from there to
 * Sika's revenue. Both movements always exist, the fee one even when the fee is 0 (invariant 2: every
 * succeeded payment has exactly one `payment` and one `fee` movement); a zero fee simply has no postings.
 */
export function planPaymentCredit(credit: PaymentCredit): PaymentCreditPlan {
  const { amount, feeAmount } = credit;
  const postings: Posting[] = [
    { account: systemAccount('scheme_settlement'), amount: -amount },
    { account: merchantAccount('available'), amount },
  ];
  if (feeAmount > 0n) {
    postings.push(
      { account: merchantAccount('available'), amount: -feeAmount },
      { account: systemAccount('fee_revenue'), amount: feeAmount },
    );
  }
  assertBalanced(postings);
  return {
    postings,
    movements: [
      { type: 'payment', amount },
      { type: 'fee', amount: -feeAmount },
    ],
  };
}

/**
 * Whether movements already recorded for the payment are those this request would have written: a repeat of
 * the same credit is answered with them, a different credit for the same payment is refused.
 */
export function isSameCredit(
  recorded: readonly BalanceTransaction[],
  scope: Scope,
  credit: PaymentCredit,
): boolean {
  const expected = planPaymentCredit(credit).movements;
  return (
    recorded.length === expected.length &&
    expected.every((movement) =>
      recorded.some(
        (row) =>
          row.type === movement.type &&
          row.amount === movement.amount &&
          row.merchantId === scope.merchantId &&
          row.livemode === scope.livemode,
      ),
    )
  );
}
