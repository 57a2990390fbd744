import { paymentsV1 } from '@sika/contracts';
import { EventSchema } from '@sika/public-api';
import { buildPaymentEvent } from '../domain/payment-event';
import { paymentChangeOf } from './payment-events-consumer';

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
    const event = buildPaymentEvent({
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
