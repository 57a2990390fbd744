import { paymentsV1 } from '@sika/contracts';

import { toCheckoutPayment } from './payments-client';

const proto: paymentsV1.Payment = {
  id: 'pay_3kTMd9Qx0bW7vYcN1LzR8aPf',
  merchantId: 'mer_1',
  livemode: true,
  status: paymentsV1.PaymentStatus.PAYMENT_STATUS_REQUEST_SENT,
  amount: 9_007_199_254_740_993n,
  currency: 'XOF',
  mode: paymentsV1.PaymentMode.PAYMENT_MODE_IMMEDIATE,
  reference: 'CMD-1',
  merchantName: 'Boutique Adjoua',
  checkoutUrl: 'http://127.0.0.1:8081/pay/pay_3kTMd9Qx0bW7vYcN1LzR8aPf',
  returnUrl: 'https://shop.example/return',
  expiresAt: new Date('2025-06-01T12:05:00Z'),
  createdAt: new Date('2025-06-01T12:00:00Z'),
  metadata: {},
  attempts: [
    {
      id: 'att_1',
      txId: 'tx1',
      status: paymentsV1.AttemptStatus.ATTEMPT_STATUS_FAILED,
      payerAliasMasked: '+225 00******05',
      duplicate: false,
      failureCode: 'alias_unknown',
      createdAt: new Date('2025-06-01T12:01:00Z'),
    },
  ],
};

describe('toCheckoutPayment', () => {
  it('keeps what the page needs, with public status names and absent fields as null', () => {
    expect(toCheckoutPayment(proto)).toEqual({
      id: 'pay_3kTMd9Qx0bW7vYcN1LzR8aPf',
      status: 'request_sent',
      livemode: true,
      amount: 9_007_199_254_740_993n,
      merchantName: 'Boutique Adjoua',
      reference: 'CMD-1',
      description: null,
      returnUrl: 'https://shop.example/return',
      cancelUrl: null,
      expiresAt: new Date('2025-06-01T12:05:00Z'),
      attempts: [{ status: 'failed', failureCode: 'alias_unknown' }],
    });
  });

  it('refuses a status it does not know rather than guess a screen', () => {
    expect(() => toCheckoutPayment({ ...proto, status: paymentsV1.PaymentStatus.UNRECOGNIZED })).toThrow(
      'unknown payment status',
    );
    expect(() => toCheckoutPayment(undefined)).toThrow();
  });
});
