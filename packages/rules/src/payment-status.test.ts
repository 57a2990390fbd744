import { isFinalPaymentStatus } from './payment-status';

describe('final payment statuses (spec §3.1)', () => {
  it.each(['succeeded', 'declined', 'expired', 'canceled', 'failed'])('%s is final', (status) => {
    expect(isFinalPaymentStatus(status)).toBe(true);
  });

  it.each(['created', 'request_sent', 'accepted_deferred'])('%s may still change', (status) => {
    expect(isFinalPaymentStatus(status)).toBe(false);
  });
});
