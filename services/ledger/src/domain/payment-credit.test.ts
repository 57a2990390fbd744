import { AppError, newId } from '@sika/platform/pure';
import type { BalanceTransaction } from './balance-transaction';
import { isSameCredit, planPaymentCredit, validatePaymentCredit } from './payment-credit';

const paymentId = newId('pay');
const scope = { merchantId: newId('mer'), livemode: false };

function sumByAccount(plan: ReturnType<typeof planPaymentCredit>): Record<string, bigint> {
  const sums: Record<string, bigint> = {};
  for (const { account, amount } of plan.postings) sums[account.kind] = (sums[account.kind] ?? 0n) + amount;
  return sums;
}

describe('planPaymentCredit', () => {
  it('credits the gross amount and takes the fee, in balanced postings', () => {
    const plan = planPaymentCredit({ paymentId, amount: 10_000n, feeAmount: 150n });
    expect(plan.movements).toEqual([
      { type: 'payment', amount: 10_000n },
      { type: 'fee', amount: -150n },
    ]);
    expect(plan.postings.reduce((sum, posting) => sum + posting.amount, 0n)).toBe(0n);
    expect(sumByAccount(plan)).toEqual({ scheme_settlement: -10_000n, available: 9_850n, fee_revenue: 150n });
  });

  it('keeps the fee movement when the fee is 0, without zero postings', () => {
    const plan = planPaymentCredit({ paymentId, amount: 500n, feeAmount: 0n });
    expect(plan.movements).toEqual([
      { type: 'payment', amount: 500n },
      { type: 'fee', amount: 0n },
    ]);
    expect(plan.postings.map((posting) => posting.amount)).toEqual([-500n, 500n]);
  });

  it('leaves a zero net amount when the fee takes the whole amount', () => {
    const plan = planPaymentCredit({ paymentId, amount: 1n, feeAmount: 1n });
    expect(sumByAccount(plan).available).toBe(0n);
  });
});

describe('validatePaymentCredit', () => {
  it.each([
    [{ paymentId: 'po_123', amount: 1n, feeAmount: 0n }, 'payment_id'],
    [{ paymentId, amount: 0n, feeAmount: 0n }, 'amount'],
    [{ paymentId, amount: 100n, feeAmount: -1n }, 'fee_amount'],
    [{ paymentId, amount: 100n, feeAmount: 101n }, 'fee_amount'],
  ])('refuses %o naming %s', (credit, param) => {
    expect.assertions(2);
    try {
      validatePaymentCredit(credit);
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).param).toBe(param);
    }
  });
});

describe('isSameCredit', () => {
  const recorded: BalanceTransaction[] = planPaymentCredit({
    paymentId,
    amount: 1_000n,
    feeAmount: 20n,
  }).movements.map((movement, index) => ({
    ...movement,
    id: `txn_${index}`,
    merchantId: scope.merchantId,
    livemode: scope.livemode,
    currency: 'XOF',
    sourceId: paymentId,
    createdAt: new Date(),
  }));

  it('recognises a repeat of the same credit', () => {
    expect(isSameCredit(recorded, scope, { paymentId, amount: 1_000n, feeAmount: 20n })).toBe(true);
  });

  it('tells apart another amount, fee, merchant or mode', () => {
    expect(isSameCredit(recorded, scope, { paymentId, amount: 1_001n, feeAmount: 20n })).toBe(false);
    expect(isSameCredit(recorded, scope, { paymentId, amount: 1_000n, feeAmount: 0n })).toBe(false);
    expect(
      isSameCredit(recorded, { ...scope, livemode: true }, { paymentId, amount: 1_000n, feeAmount: 20n }),
    ).toBe(false);
    expect(
      isSameCredit(
        recorded,
        { ...scope, merchantId: newId('mer') },
        { paymentId, amount: 1_000n, feeAmount: 20n },
      ),
    ).toBe(false);
  });
});
