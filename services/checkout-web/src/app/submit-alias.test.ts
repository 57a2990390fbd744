import { AppError, ManualClock } from '@sika/platform';

import type { CheckoutPayment } from '../domain/payment';
import type { PaymentsPort } from './ports';
import { ShowCheckout } from './show-checkout';
import { SubmitAlias } from './submit-alias';

const PAYMENT_ID = 'pay_3kTMd9Qx0bW7vYcN1LzR8aPf';
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

/** payments answering StartAttempt with `failure` (or success), and reads with `current`. */
function submitAliasWith(failure: Error | null, current = payment()) {
  const startAttempt = jest.fn(async () => {
    if (failure !== null) throw failure;
    return current;
  });
  const payments: PaymentsPort = { getCheckoutPayment: async () => current, startAttempt };
  const submitAlias = new SubmitAlias({ payments, showCheckout: new ShowCheckout({ payments, clock }) });
  return { submitAlias, startAttempt };
}

describe('SubmitAlias', () => {
  it('starts an attempt with the trimmed alias', async () => {
    const { submitAlias, startAttempt } = submitAliasWith(null);

    await expect(submitAlias.execute(PAYMENT_ID, ' +225 0000000001 ')).resolves.toEqual({
      kind: 'submitted',
    });
    expect(startAttempt).toHaveBeenCalledWith(PAYMENT_ID, '+225 0000000001');
  });

  it('refuses a malformed alias without asking payments', async () => {
    const { submitAlias, startAttempt } = submitAliasWith(null);

    await expect(submitAlias.execute(PAYMENT_ID, '07 00 00 00 01')).resolves.toMatchObject({
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

    await expect(submitAlias.execute(PAYMENT_ID, '+225 0000000001')).resolves.toMatchObject({
      kind: 'rejected',
      problem,
      view: { payment: { id: PAYMENT_ID }, screen: { kind: 'alias_form' } },
    });
  });

  it.each(['payment_already_final', 'payment_expiring'] as const)(
    'sends a payment closed to new attempts (%s) to its page',
    async (code) => {
      const { submitAlias } = submitAliasWith(new AppError(code, 'x'));

      await expect(submitAlias.execute(PAYMENT_ID, '+225 0000000001')).resolves.toEqual({ kind: 'closed' });
    },
  );

  it('treats a lost answer as sent when payments did record the attempt', async () => {
    const recorded = payment({ status: 'request_sent', attempts: [{ status: 'sent', failureCode: null }] });
    const { submitAlias } = submitAliasWith(new AppError('service_unavailable', 'x'), recorded);

    await expect(submitAlias.execute(PAYMENT_ID, '+225 0000000001')).resolves.toEqual({ kind: 'submitted' });
  });

  it.each([
    new AppError('resource_missing', 'x'),
    new AppError('parameter_invalid', 'x', { param: 'payment_id' }),
    new Error('bug'),
  ])('lets %s through', async (failure) => {
    const { submitAlias } = submitAliasWith(failure);

    await expect(submitAlias.execute(PAYMENT_ID, '+225 0000000001')).rejects.toBe(failure);
  });

  it('answers resource_missing for a path that cannot be a payment id, without asking payments', async () => {
    const { submitAlias, startAttempt } = submitAliasWith(null);

    await expect(submitAlias.execute('pay_../../x', '+225 0000000001')).rejects.toMatchObject({
      code: 'resource_missing',
    });
    expect(startAttempt).not.toHaveBeenCalled();
  });
});
