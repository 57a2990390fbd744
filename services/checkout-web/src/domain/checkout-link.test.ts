import { checkoutTokenOf } from '@sika/rules';

import { opensCheckout } from './checkout-link';

const KEY = 'checkout-link-test-key-0123456789abcdef';
const PAYMENT = 'pay_3kTMd9Qx0bW7vYcN1LzR8aPf';

describe('opensCheckout', () => {
  it("opens with the payment's own token only", () => {
    const token = checkoutTokenOf(KEY, PAYMENT);
    expect(opensCheckout({ paymentId: PAYMENT, token }, KEY)).toBe(true);
    expect(opensCheckout({ paymentId: PAYMENT, token: '' }, KEY)).toBe(false);
    expect(opensCheckout({ paymentId: PAYMENT, token: checkoutTokenOf(KEY, 'pay_other') }, KEY)).toBe(false);
    expect(opensCheckout({ paymentId: PAYMENT, token: checkoutTokenOf(`${KEY}x`, PAYMENT) }, KEY)).toBe(
      false,
    );
  });

  it('never opens what cannot be a payment id, whatever the token', () => {
    expect(opensCheckout({ paymentId: 'pay_<x>', token: checkoutTokenOf(KEY, 'pay_<x>') }, KEY)).toBe(false);
  });
});
