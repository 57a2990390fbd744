import { AppError, ManualClock, type RateLimitDecision } from '@sika/platform';
import { checkoutTokenOf } from '@sika/rules';

import type { CheckoutPayment } from '../domain/payment';
import type { PaymentsPort } from './ports';
import { ShowCheckout } from './show-checkout';
import { SubmitAlias } from './submit-alias';

const PAYMENT_ID = 'pay_3kTMd9Qx0bW7vYcN1LzR8aPf';
const TOKEN_KEY = 'submit-alias-test-key-0123456789abcdef';
const LINK = { paymentId: PAYMENT_ID, token: checkoutTokenOf(TOKEN_KEY, PAYMENT_ID) };
const ADDRESS = '198.51.100.7';
const clock = new ManualClock(new Date('2025-06-01T12:00:00Z'));

function payment(fields: Partial<CheckoutPayment> = {}): CheckoutPayment {
  return {
    id: PAYMENT_ID,
    status: 'created',
    livemode: false,
    amount: 5_000n,
    merchantName: null,
    reference: null,
    description: null,
    returnUrl: 'https://shop.example/return',
    cancelUrl: null,
    expiresAt: new Date('2025-06-01T12:05:00Z'),
    attempts: [],
    ...fields,
  };
}

/**
 * payments answering StartAttempt with `failure` (or success), and reads with `current`; the submission
 * limiter answering `verdict` (undefined: it cannot tell).
 */
function submitAliasWith(
  failure: Error | null,
  current = payment(),
  verdict: RateLimitDecision | undefined = undefined,
) {
  const startAttempt = jest.fn(async () => {
    if (failure !== null) throw failure;
    return current;
  });
  const hit = jest.fn(async () => verdict);
  const payments: PaymentsPort = { getCheckoutPayment: async () => current, startAttempt };
  const submitAlias = new SubmitAlias({
    payments,
    showCheckout: new ShowCheckout({ payments, clock, tokenKey: TOKEN_KEY }),
    submissions: { hit },
    tokenKey: TOKEN_KEY,
  });
  return { submitAlias, startAttempt, hit };
}

describe('SubmitAlias', () => {
  it('starts an attempt with the trimmed alias', async () => {
    const { submitAlias, startAttempt } = submitAliasWith(null);

    await expect(submitAlias.execute(LINK, ' +225 0000000001 ', ADDRESS)).resolves.toEqual({
      kind: 'submitted',
    });
    expect(startAttempt).toHaveBeenCalledWith(PAYMENT_ID, '+225 0000000001');
  });

  it('refuses a malformed alias without asking payments', async () => {
    const { submitAlias, startAttempt } = submitAliasWith(null);

    await expect(submitAlias.execute(LINK, '07 00 00 00 01', ADDRESS)).resolves.toMatchObject({
      kind: 'rejected',
      problem: 'alias_invalid',
    });
    expect(startAttempt).not.toHaveBeenCalled();
  });

  it.each([
    [new AppError('alias_unknown', 'x', { param: 'customer_alias' }), 'alias_unknown'],
    [new AppError('too_many_attempts', 'x'), 'too_many_attempts'],
    [new AppError('parameter_invalid', 'x', { param: 'customer_alias' }), 'alias_invalid'],
    [new AppError('service_unavailable', 'x'), 'unavailable'],
  ])('turns payments %s into the problem %s, with the payment to show again', async (failure, problem) => {
    const { submitAlias } = submitAliasWith(failure);

    await expect(submitAlias.execute(LINK, '+225 0000000001', ADDRESS)).resolves.toMatchObject({
      kind: 'rejected',
      problem,
      view: { payment: { id: PAYMENT_ID }, screen: { kind: 'alias_form' } },
    });
  });

  it.each(['payment_already_final', 'payment_expiring'] as const)(
    'sends a payment closed to new attempts (%s) to its page',
    async (code) => {
      const { submitAlias } = submitAliasWith(new AppError(code, 'x'));

      await expect(submitAlias.execute(LINK, '+225 0000000001', ADDRESS)).resolves.toEqual({
        kind: 'closed',
      });
    },
  );

  it('treats a lost answer as sent when payments did record the attempt', async () => {
    const recorded = payment({ status: 'request_sent', attempts: [{ status: 'sent', failureCode: null }] });
    const { submitAlias } = submitAliasWith(new AppError('service_unavailable', 'x'), recorded);

    await expect(submitAlias.execute(LINK, '+225 0000000001', ADDRESS)).resolves.toEqual({
      kind: 'submitted',
    });
  });

  it.each([
    new AppError('resource_missing', 'x'),
    new AppError('parameter_invalid', 'x', { param: 'payment_id' }),
    new Error('bug'),
  ])('lets %s through', async (failure) => {
    const { submitAlias } = submitAliasWith(failure);

    await expect(submitAlias.execute(LINK, '+225 0000000001', ADDRESS)).rejects.toBe(failure);
  });

  it.each([
    ['a path that cannot be a payment id', { paymentId: 'pay_../../x', token: LINK.token }],
    ['no token', { paymentId: PAYMENT_ID, token: '' }],
    [
      'the token of another payment',
      { paymentId: PAYMENT_ID, token: checkoutTokenOf(TOKEN_KEY, 'pay_other') },
    ],
  ])('answers resource_missing for %s, without asking payments or counting it', async (_case, link) => {
    const { submitAlias, startAttempt, hit } = submitAliasWith(null);

    await expect(submitAlias.execute(link, '+225 0000000001', ADDRESS)).rejects.toMatchObject({
      code: 'resource_missing',
    });
    expect(startAttempt).not.toHaveBeenCalled();
    expect(hit).not.toHaveBeenCalled();
  });

  it('counts the submission against the address, and sends nothing once the address is past its limit', async () => {
    const refused = { allowed: false, limit: 20, remaining: 0, resetSeconds: 240 };
    const { submitAlias, startAttempt, hit } = submitAliasWith(null, payment(), refused);

    await expect(submitAlias.execute(LINK, '+225 0000000001', ADDRESS)).resolves.toEqual({
      kind: 'limited',
      retryAfterSeconds: 240,
    });
    expect(hit).toHaveBeenCalledWith(ADDRESS);
    expect(startAttempt).not.toHaveBeenCalled();
  });
});
