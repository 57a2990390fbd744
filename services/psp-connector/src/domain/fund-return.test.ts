import { afterRefusal, afterSending, afterVerdict, RETURN_RETRY_DELAYS_MS } from './fund-return';

const now = new Date('2026-03-01T10:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);

describe('afterVerdict', () => {
  it('ends a return the participant sent, once', () => {
    expect(afterVerdict({ status: 'sending', attempts: 1 }, 'sent', now)).toEqual({
      status: 'sent',
      nextAttemptAt: null,
      outcome: 'SENT',
    });
    expect(afterVerdict({ status: 'sent', attempts: 1 }, 'sent', now)).toBeNull();
    expect(afterVerdict({ status: 'sent', attempts: 1 }, 'rejected', now)).toBeNull();
  });

  it('sends a rejected return again after a growing pause, and abandons it past the budget', () => {
    RETURN_RETRY_DELAYS_MS.forEach((pause, index) => {
      expect(afterVerdict({ status: 'sending', attempts: index + 1 }, 'rejected', now)).toEqual({
        status: 'rejected',
        nextAttemptAt: later(pause),
        outcome: null,
      });
    });
    expect(
      afterVerdict({ status: 'sending', attempts: RETURN_RETRY_DELAYS_MS.length + 1 }, 'rejected', now),
    ).toEqual({ status: 'abandoned', nextAttemptAt: null, outcome: 'ABANDONED' });
  });
});

it('waits for the verdict of a sent return, and abandons one the participant will not take', () => {
  expect(afterSending(now)).toEqual({ status: 'sending', nextAttemptAt: later(60_000), outcome: null });
  expect(afterRefusal()).toEqual({ status: 'abandoned', nextAttemptAt: null, outcome: 'ABANDONED' });
});
