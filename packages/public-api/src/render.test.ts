import { ledgerV1, paymentsV1 } from '@sika/contracts';
import {
  BalanceSchema,
  BalanceTransactionSchema,
  EventSchema,
  PaymentSchema,
  paymentStatus,
  renderBalance,
  renderBalanceTransaction,
  renderEvent,
  renderPayment,
  toJsonAmount,
} from './index';

const createdAt = new Date('2026-11-21T10:00:00.000Z');

function payment(overrides: Partial<paymentsV1.Payment> = {}): paymentsV1.Payment {
  return {
    id: 'pay_abc123',
    merchantId: 'mer_x',
    livemode: false,
    status: paymentsV1.PaymentStatus.PAYMENT_STATUS_SUCCEEDED,
    amount: 10_000n,
    currency: 'XOF',
    feeAmount: 100n,
    netAmount: 9_900n,
    mode: paymentsV1.PaymentMode.PAYMENT_MODE_IMMEDIATE,
    reference: 'order-1',
    description: undefined,
    txId: 'SIKAabc',
    payerAliasMasked: '+225 00******01',
    checkoutUrl: 'http://127.0.0.1:8081/pay/pay_abc123',
    returnUrl: 'https://shop.example/return',
    cancelUrl: undefined,
    expiresAt: new Date(createdAt.getTime() + 300_000),
    createdAt,
    metadata: { order: '42' },
    attempts: [
      {
        id: 'att_1',
        txId: 'SIKAabc',
        status: paymentsV1.AttemptStatus.ATTEMPT_STATUS_SUCCEEDED,
        payerAliasMasked: '+225 00******01',
        duplicate: false,
        failureCode: undefined,
        createdAt,
      },
    ],
    ...overrides,
  };
}

describe('renderPayment', () => {
  it('renders every field of spec §2.1 and conforms to its schema', () => {
    const rendered = renderPayment(payment());
    expect(PaymentSchema.parse(rendered)).toEqual(rendered);
    expect(rendered).toMatchObject({
      object: 'payment',
      status: 'succeeded',
      amount: 10_000,
      fee_amount: 100,
      net_amount: 9_900,
      mode: 'immediate',
      description: null,
      cancel_url: null,
      metadata: { order: '42' },
      attempts: [{ tx_id: 'SIKAabc', status: 'succeeded', duplicate: false, failure_code: null }],
    });
    expect(rendered).not.toHaveProperty('merchant_id');
  });

  it('keeps fee and net null until success', () => {
    const rendered = renderPayment(
      payment({
        status: paymentsV1.PaymentStatus.PAYMENT_STATUS_CREATED,
        feeAmount: undefined,
        netAmount: undefined,
      }),
    );
    expect(rendered).toMatchObject({ status: 'created', fee_amount: null, net_amount: null });
  });
});

describe('enums', () => {
  it('maps every payment status both ways', () => {
    expect(paymentStatus.names).toEqual([
      'created',
      'request_sent',
      'accepted_deferred',
      'succeeded',
      'declined',
      'expired',
      'canceled',
      'failed',
    ]);
    for (const name of paymentStatus.names) {
      const value = paymentStatus.fromPublic(name);
      expect(value).toBeDefined();
      expect(paymentStatus.toPublic(value!)).toBe(name);
    }
    expect(paymentStatus.fromPublic('unspecified')).toBeUndefined();
  });
});

describe('balance', () => {
  it('renders the balance and a movement', () => {
    const balance = renderBalance({ available: 9_900n, pendingPayout: 0n, currency: 'XOF', livemode: false });
    expect(BalanceSchema.parse(balance)).toEqual({
      object: 'balance',
      available: 9_900,
      pending_payout: 0,
      currency: 'XOF',
      livemode: false,
    });
    const movement = renderBalanceTransaction({
      id: 'txn_1',
      type: ledgerV1.BalanceTransactionType.BALANCE_TRANSACTION_TYPE_FEE,
      amount: -100n,
      currency: 'XOF',
      sourceId: 'pay_abc123',
      livemode: false,
      createdAt,
    });
    expect(BalanceTransactionSchema.parse(movement)).toMatchObject({ type: 'fee', amount: -100 });
  });
});

describe('events and amounts', () => {
  it('wraps the payment under data.object', () => {
    const event = renderEvent({
      id: 'evt_1',
      type: 'payment.succeeded',
      createdAt,
      livemode: false,
      object: renderPayment(payment()),
    });
    expect(EventSchema.parse(event).data.object).toMatchObject({ metadata: { order: '42' } });
  });

  it('refuses an amount a JSON number cannot carry exactly', () => {
    expect(toJsonAmount(BigInt(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => toJsonAmount(BigInt(Number.MAX_SAFE_INTEGER) + 1n)).toThrow(RangeError);
  });
});
