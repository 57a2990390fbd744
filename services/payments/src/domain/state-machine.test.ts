import { AppError } from '@sika/platform/pure';
import { PAYMENT_STATUSES } from './payment';
import type { PaymentMode, PaymentStatus } from './payment';
import { transition, TransitionNotAllowed } from './state-machine';
import type { PaymentTrigger } from './state-machine';

const TRIGGERS: Record<string, PaymentTrigger> = {
  request_sent: { kind: 'request_sent' },
  accepted_deferred: { kind: 'payer_accepted_deferred' },
  paid: { kind: 'payer_paid' },
  declined_retry: { kind: 'payer_declined', retryPossible: true },
  declined_last: { kind: 'payer_declined', retryPossible: false },
  deadline: { kind: 'deadline_passed' },
  cancel: { kind: 'merchant_canceled' },
  bank_failed: { kind: 'bank_failed' },
};

/** Expected outcome per (status, trigger) for an on_delivery payment: the target, '=' (unchanged), or '!' (not allowed). */
const MATRIX: Record<
  'created' | 'request_sent' | 'accepted_deferred',
  Record<keyof typeof TRIGGERS, string>
> = {
  created: {
    request_sent: 'request_sent',
    accepted_deferred: '!',
    paid: '!',
    declined_retry: '!',
    declined_last: '!',
    deadline: 'expired',
    cancel: 'canceled',
    bank_failed: 'failed',
  },
  request_sent: {
    request_sent: '=',
    accepted_deferred: 'accepted_deferred',
    paid: 'succeeded',
    declined_retry: '=',
    declined_last: 'declined',
    deadline: 'expired',
    cancel: 'canceled',
    bank_failed: 'failed',
  },
  accepted_deferred: {
    request_sent: '=',
    accepted_deferred: '=',
    paid: 'succeeded',
    declined_retry: 'declined',
    declined_last: 'declined',
    deadline: 'expired',
    cancel: 'canceled',
    bank_failed: 'failed',
  },
};

const cases = Object.entries(MATRIX).flatMap(([from, row]) =>
  Object.entries(row).map(([trigger, expected]) => [from as PaymentStatus, trigger, expected] as const),
);

describe('transition', () => {
  it.each(cases)('%s + %s → %s', (from, trigger, expected) => {
    const run = () => transition(from, TRIGGERS[trigger] as PaymentTrigger, 'on_delivery');
    if (expected === '!') {
      expect(run).toThrow(TransitionNotAllowed);
    } else if (expected === '=') {
      expect(run()).toEqual({ to: from, event: null });
    } else {
      expect(run()).toEqual({ to: expected, event: `payment.${expected}` });
    }
  });

  const finals = PAYMENT_STATUSES.filter((status) => !(status in MATRIX));

  it('covers every status: the non-final ones in the matrix, the rest final', () => {
    expect(finals).toEqual(['succeeded', 'declined', 'expired', 'canceled', 'failed']);
  });

  it.each(finals.flatMap((from) => Object.keys(TRIGGERS).map((trigger) => [from, trigger] as const)))(
    'a final %s payment never changes (%s → payment_already_final)',
    (from, trigger) => {
      let thrown: unknown;
      try {
        transition(from, TRIGGERS[trigger] as PaymentTrigger, 'immediate');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(AppError);
      expect((thrown as AppError).code).toBe('payment_already_final');
    },
  );

  it('takes a deferred acceptance only for on_delivery payments', () => {
    const modes: PaymentMode[] = ['immediate', 'on_delivery'];
    const outcomes = modes.map((mode) => {
      try {
        return transition('request_sent', { kind: 'payer_accepted_deferred' }, mode).to;
      } catch (error) {
        return (error as Error).name;
      }
    });
    expect(outcomes).toEqual(['TransitionNotAllowed', 'accepted_deferred']);
  });
});
