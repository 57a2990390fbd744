import { paymentsV1, payoutsV1 } from '@sika/contracts';
import { EventSchema } from '@sika/public-api';
import { buildEvent } from '../domain/event';
import { paymentChangeOf, payoutChangeOf } from './events-consumers';

const OCCURRED = new Date('2026-02-03T04:05:06.789Z');

function succeededPayment(): paymentsV1.Payment {
  return paymentsV1.Payment.fromPartial({
    id: 'pay_0123456789abcdefghijklmn',
    merchantId: 'mer_0123456789abcdefghijklmn',
    livemode: false,
    status: paymentsV1.PaymentStatus.PAYMENT_STATUS_SUCCEEDED,
    amount: 10_000n,
    currency: 'XOF',
    feeAmount: 150n,
    netAmount: 9_850n,
    mode: paymentsV1.PaymentMode.PAYMENT_MODE_IMMEDIATE,
    checkoutUrl: 'http://127.0.0.1:8081/pay/pay_0123456789abcdefghijklmn',
    returnUrl: 'https://shop.example/return',
    expiresAt: OCCURRED,
    createdAt: OCCURRED,
    metadata: { order_id: '42' },
  });
}

describe('a PaymentEvent made a stored event', () => {
  it('stores the public event of spec §2.6 with the payment and its metadata under data.object', () => {
    const event = buildEvent({
      id: 'evt_0123456789abcdefghijklmn',
      sourceMessageId: 'msg_1',
      change: paymentChangeOf({
        type: 'payment.succeeded',
        payment: succeededPayment(),
        occurredAt: OCCURRED,
      }),
      receivedAt: new Date(),
    });
    const body: unknown = JSON.parse(event.payload);
    expect(EventSchema.parse(body)).toEqual(body);
    expect(body).toMatchObject({
      id: 'evt_0123456789abcdefghijklmn',
      object: 'event',
      type: 'payment.succeeded',
      created_at: '2026-02-03T04:05:06.789Z',
      livemode: false,
      data: {
        object: {
          id: 'pay_0123456789abcdefghijklmn',
          object: 'payment',
          metadata: { order_id: '42' },
          net_amount: 9_850,
        },
      },
    });
    expect(event).toMatchObject({
      scope: { merchantId: 'mer_0123456789abcdefghijklmn', livemode: false },
      type: 'payment.succeeded',
      createdAt: OCCURRED,
    });
  });

  it.each([
    ['an unknown type', { type: 'payment.created', payment: succeededPayment() }],
    ['a payout type', { type: 'payout.paid', payment: succeededPayment() }],
    ['no payment', { type: 'payment.succeeded', payment: undefined }],
  ])('refuses %s', (_case, event) => {
    expect(() => paymentChangeOf({ ...event, occurredAt: OCCURRED })).toThrow();
  });
});

describe('a PayoutEvent made a stored event', () => {
  const payout = payoutsV1.Payout.fromPartial({
    id: 'po_0123456789abcdefghijklmn',
    merchantId: 'mer_0123456789abcdefghijklmn',
    livemode: true,
    amount: 5_000n,
    currency: 'XOF',
    status: payoutsV1.PayoutStatus.PAYOUT_STATUS_FAILED,
    method: payoutsV1.PayoutMethod.PAYOUT_METHOD_MANUAL,
    destination: {
      aliasType: payoutsV1.AliasType.ALIAS_TYPE_ACCOUNT_KEY,
      aliasMasked: '9b******8c',
      holderName: 'Boutique Awa',
    },
    failureCode: 'no_account',
    createdAt: OCCURRED,
  });

  it('stores the payout under data.object, in its public shape', () => {
    const event = buildEvent({
      id: 'evt_0123456789abcdefghijklmn',
      sourceMessageId: 'msg_2',
      change: payoutChangeOf({ type: 'payout.failed', payout, occurredAt: OCCURRED }),
      receivedAt: new Date(),
    });
    const body: unknown = JSON.parse(event.payload);
    expect(EventSchema.parse(body)).toEqual(body);
    expect(body).toMatchObject({
      type: 'payout.failed',
      livemode: true,
      data: {
        object: {
          id: 'po_0123456789abcdefghijklmn',
          object: 'payout',
          amount: 5_000,
          status: 'failed',
          method: 'manual',
          destination: { type: 'account_key', alias: '9b******8c', holder_name: 'Boutique Awa' },
          failure_code: 'no_account',
          paid_at: null,
        },
      },
    });
    expect(event.scope).toEqual({ merchantId: 'mer_0123456789abcdefghijklmn', livemode: true });
  });

  it.each([
    ['a payment type', { type: 'payment.succeeded', payout }],
    ['no payout', { type: 'payout.paid', payout: undefined }],
  ])('refuses %s', (_case, event) => {
    expect(() => payoutChangeOf({ ...event, occurredAt: OCCURRED })).toThrow();
  });
});
