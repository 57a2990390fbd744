import { checkoutTokenOf, isCheckoutToken } from './checkout-token';

const KEY = 'k'.repeat(32);
const PAYMENT = 'pay_3kTMd9Qx0bW7vYcN1LzR8aPf';

describe('checkout tokens', () => {
  it('are 32 base64url characters, the same for the same key and payment', () => {
    const token = checkoutTokenOf(KEY, PAYMENT);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(checkoutTokenOf(KEY, PAYMENT)).toBe(token);
  });

  it('differ from one payment to another and from one key to another', () => {
    const token = checkoutTokenOf(KEY, PAYMENT);
    expect(checkoutTokenOf(KEY, 'pay_3kTMd9Qx0bW7vYcN1LzR8aPg')).not.toBe(token);
    expect(checkoutTokenOf('l'.repeat(32), PAYMENT)).not.toBe(token);
  });

  it("accept only the payment's own token", () => {
    const token = checkoutTokenOf(KEY, PAYMENT);
    expect(isCheckoutToken(KEY, PAYMENT, token)).toBe(true);
    expect(isCheckoutToken(KEY, 'pay_3kTMd9Qx0bW7vYcN1LzR8aPg', token)).toBe(false);
    expect(isCheckoutToken('l'.repeat(32), PAYMENT, token)).toBe(false);
    expect(isCheckoutToken(KEY, PAYMENT, `${token.slice(0, 31)}${token[31] === 'A' ? 'B' : 'A'}`)).toBe(
      false,
    );
    expect(isCheckoutToken(KEY, PAYMENT, token.slice(0, 31))).toBe(false);
    expect(isCheckoutToken(KEY, PAYMENT, `${token}A`)).toBe(false);
    expect(isCheckoutToken(KEY, PAYMENT, '')).toBe(false);
  });
});
