import type { AttemptStatus, CheckoutPayment, PaymentStatus } from './payment';
import { checkoutScreenOf, isLiveScreen, screenKey } from './screen';

const NOW = new Date('2025-06-01T12:00:00Z');

function payment(
  status: PaymentStatus,
  attempts: AttemptStatus[] = [],
  expiresAt = new Date('2025-06-01T12:05:00Z'),
): CheckoutPayment {
  return {
    id: 'pay_x',
    status,
    livemode: false,
    amount: 1_000n,
    merchantName: null,
    reference: null,
    description: null,
    returnUrl: 'https://shop.example/return',
    cancelUrl: null,
    expiresAt,
    attempts: attempts.map((attemptStatus) => ({ status: attemptStatus, failureCode: null })),
  };
}

describe('checkoutScreenOf', () => {
  it.each<[string, CheckoutPayment, string]>([
    ['a new payment shows the form', payment('created'), 'alias_form:none'],
    ['a request being sent is waited for', payment('created', ['pending']), 'waiting:sending'],
    ['a request at the bank is waited for', payment('request_sent', ['sent']), 'waiting:sent'],
    [
      'an on-delivery acceptance is waited for while the payment catches up',
      payment('request_sent', ['accepted_deferred']),
      'waiting:sent',
    ],
    [
      'a refused request offers a new try',
      payment('request_sent', ['declined']),
      'alias_form:previous_declined',
    ],
    [
      'an expired request offers a new try',
      payment('request_sent', ['expired']),
      'alias_form:previous_expired',
    ],
    ['an unknown alias offers a new try', payment('created', ['failed']), 'alias_form:previous_failed'],
    [
      'the latest attempt decides the notice',
      payment('request_sent', ['failed', 'declined']),
      'alias_form:previous_declined',
    ],
    ['any request still open is waited for', payment('request_sent', ['sent', 'declined']), 'waiting:sent'],
    [
      'five closed attempts end the page',
      payment('request_sent', ['declined', 'declined', 'failed', 'expired', 'declined']),
      'outcome:attempts_exhausted',
    ],
    ['succeeded goes back to the shop', payment('succeeded', ['succeeded']), 'paid'],
    ['accepted_deferred goes back to the shop', payment('accepted_deferred', ['accepted_deferred']), 'paid'],
    ['declined', payment('declined', ['declined']), 'outcome:declined'],
    ['expired', payment('expired'), 'outcome:expired'],
    ['canceled, even with a request out', payment('canceled', ['sent']), 'outcome:canceled'],
    ['failed', payment('failed', ['failed']), 'outcome:failed'],
    ['past the deadline the form is closed', payment('created', [], NOW), 'outcome:expired'],
    [
      'an alias unknown to the scheme is explained and another one asked for',
      {
        ...payment('created'),
        attempts: [{ status: 'failed', failureCode: 'alias_unknown' }],
      },
      'alias_form:previous_alias_unknown',
    ],
    [
      'too close to the deadline for a customer to answer, the form is closed',
      payment('created', [], new Date(NOW.getTime() + 29_000)),
      'outcome:expired',
    ],
    [
      'with time enough to answer, the form is open',
      payment('created', [], new Date(NOW.getTime() + 30_000)),
      'alias_form:none',
    ],
    [
      'past the deadline an open request is still waited for',
      payment('request_sent', ['sent'], NOW),
      'waiting:sent',
    ],
  ])('%s', (_case, input, key) => {
    expect(screenKey(checkoutScreenOf(input, NOW))).toBe(key);
  });

  it('follows only the waiting screen live', () => {
    expect(isLiveScreen({ kind: 'waiting', stage: 'sent' })).toBe(true);
    expect(isLiveScreen({ kind: 'paid' })).toBe(false);
    expect(isLiveScreen({ kind: 'alias_form', notice: null })).toBe(false);
    expect(isLiveScreen({ kind: 'outcome', outcome: 'declined' })).toBe(false);
  });
});
