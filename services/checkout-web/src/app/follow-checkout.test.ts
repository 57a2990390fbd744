import { AppError, createLogger, systemClock } from '@sika/platform';
import { checkoutTokenOf } from '@sika/rules';

import type { CheckoutPayment, PaymentStatus } from '../domain/payment';
import { screenKey } from '../domain/screen';
import { FollowCheckout } from './follow-checkout';
import type { LiveUpdate } from './follow-checkout';

const PAYMENT_ID = 'pay_3kTMd9Qx0bW7vYcN1LzR8aPf';
const TOKEN_KEY = 'follow-checkout-test-key-0123456789abcdef';
const LINK = { paymentId: PAYMENT_ID, token: checkoutTokenOf(TOKEN_KEY, PAYMENT_ID) };

function payment(status: PaymentStatus, attempt: 'sent' | 'succeeded' | 'declined' | null): CheckoutPayment {
  return {
    id: PAYMENT_ID,
    status,
    livemode: false,
    amount: 5_000n,
    merchantName: null,
    reference: null,
    description: null,
    returnUrl: 'https://shop.example/return',
    cancelUrl: null,
    expiresAt: new Date(Date.now() + 60_000),
    attempts: attempt === null ? [] : [{ status: attempt, failureCode: null }],
  };
}

/** payments answering each read with the next scripted answer (the last one repeats). */
function following(answers: (CheckoutPayment | AppError)[]) {
  let reads = 0;
  const next = async (): Promise<CheckoutPayment> => {
    const answer = answers[Math.min(reads, answers.length - 1)] as CheckoutPayment | AppError;
    reads += 1;
    if (answer instanceof AppError) throw answer;
    return answer;
  };
  const follow = new FollowCheckout({
    payments: { getCheckoutPayment: next, startAttempt: next },
    clock: systemClock,
    logger: createLogger({ service: 'test', level: 'silent' }),
    pollIntervalMs: 1,
    tokenKey: TOKEN_KEY,
  });
  return { follow, reads: () => reads };
}

async function collect(updates: AsyncGenerator<LiveUpdate>): Promise<string[]> {
  const seen: string[] = [];
  for await (const { status, screen } of updates) seen.push(`${status} ${screenKey(screen)}`);
  return seen;
}

describe('FollowCheckout', () => {
  it('yields each change once, the current state first, and ends on a screen that cannot change by itself', async () => {
    const waiting = payment('request_sent', 'sent');
    const { follow, reads } = following([waiting, waiting, waiting, payment('succeeded', 'succeeded')]);

    expect(await collect(follow.updates(LINK, new AbortController().signal))).toEqual([
      'request_sent waiting:sent',
      'succeeded paid',
    ]);
    expect(reads()).toBe(4);
  });

  it('ends at once for a payment that is not waiting', async () => {
    const { follow, reads } = following([payment('request_sent', 'declined')]);

    expect(await collect(follow.updates(LINK, new AbortController().signal))).toEqual([
      'request_sent alias_form:previous_declined',
    ]);
    expect(reads()).toBe(1);
  });

  it('fails like a page load when the first read fails', async () => {
    const { follow } = following([new AppError('resource_missing', 'No such payment.')]);

    await expect(collect(follow.updates(LINK, new AbortController().signal))).rejects.toMatchObject({
      code: 'resource_missing',
    });
  });

  it('rides out failed reads once under way, and stops if the payment vanishes', async () => {
    const waiting = payment('request_sent', 'sent');
    const down = new AppError('service_unavailable', 'down');
    const { follow } = following([
      waiting,
      down,
      down,
      payment('canceled', 'sent'),
      new AppError('resource_missing', 'x'),
    ]);

    expect(await collect(follow.updates(LINK, new AbortController().signal))).toEqual([
      'request_sent waiting:sent',
      'canceled outcome:canceled',
    ]);
    const vanishing = following([waiting, new AppError('resource_missing', 'gone')]);
    expect(await collect(vanishing.follow.updates(LINK, new AbortController().signal))).toEqual([
      'request_sent waiting:sent',
    ]);
  });

  it('stops when the signal aborts', async () => {
    const { follow } = following([payment('request_sent', 'sent')]);
    const controller = new AbortController();
    const updates = follow.updates(LINK, controller.signal);

    await updates.next();
    controller.abort();

    await expect(updates.next()).resolves.toEqual({ done: true, value: undefined });
  });
});
