import { nextAttemptStep } from './attempt';
import type { AttemptOutcome } from './attempt';
import { ATTEMPT_STATUSES } from './payment';
import type { AttemptStatus } from './payment';

const OUTCOMES: Record<string, AttemptOutcome> = {
  sent: { kind: 'sent' },
  alias_unknown: { kind: 'alias_unknown', reasonCode: 'BE23' },
  rejected_other: { kind: 'rejected', reasonCode: 'AM02' },
  failed: { kind: 'failed', reasonCode: 'AG10' },
  accepted_deferred: { kind: 'accepted_deferred' },
  paid: { kind: 'paid', endToEndId: 'E2E1', amount: 1n, receivedAt: new Date(0) },
  mispaid: { kind: 'mispaid', endToEndId: 'E2E1', amount: 1n, receivedAt: new Date(0), mismatch: 'amount' },
  declined: { kind: 'declined', reasonCode: 'FR01' },
  expired: { kind: 'expired' },
  closed: { kind: 'closed' },
};

/** status/failure_code after the outcome, or null when the outcome is stale. */
const EXPECTED: Record<AttemptStatus, Record<keyof typeof OUTCOMES, string | null>> = {
  pending: {
    sent: 'sent',
    alias_unknown: 'failed/alias_unknown',
    rejected_other: 'failed/request_rejected',
    failed: 'failed/bank_failure',
    accepted_deferred: 'accepted_deferred',
    paid: 'succeeded',
    mispaid: 'failed/amount_mismatch',
    declined: 'declined/payer_declined',
    expired: 'expired/request_expired',
    closed: 'failed/payment_closed',
  },
  sent: {
    sent: null,
    alias_unknown: null,
    rejected_other: null,
    failed: 'failed/bank_failure',
    accepted_deferred: 'accepted_deferred',
    paid: 'succeeded',
    mispaid: 'failed/amount_mismatch',
    declined: 'declined/payer_declined',
    expired: 'expired/request_expired',
    closed: null,
  },
  accepted_deferred: {
    sent: null,
    alias_unknown: null,
    rejected_other: null,
    failed: 'failed/bank_failure',
    accepted_deferred: null,
    paid: 'succeeded',
    mispaid: 'failed/amount_mismatch',
    declined: 'declined/payer_declined',
    expired: 'expired/request_expired',
    closed: null,
  },
  succeeded: {
    sent: null,
    alias_unknown: null,
    rejected_other: null,
    failed: null,
    accepted_deferred: null,
    paid: null,
    mispaid: null,
    declined: null,
    expired: null,
    closed: null,
  },
  declined: {
    sent: null,
    alias_unknown: null,
    rejected_other: null,
    failed: null,
    accepted_deferred: null,
    paid: 'succeeded',
    mispaid: 'failed/amount_mismatch',
    declined: null,
    expired: null,
    closed: null,
  },
  expired: {
    sent: null,
    alias_unknown: null,
    rejected_other: null,
    failed: null,
    accepted_deferred: null,
    paid: 'succeeded',
    mispaid: 'failed/amount_mismatch',
    declined: null,
    expired: null,
    closed: null,
  },
  failed: {
    sent: null,
    alias_unknown: null,
    rejected_other: null,
    failed: null,
    accepted_deferred: null,
    paid: 'succeeded',
    mispaid: 'failed/amount_mismatch',
    declined: null,
    expired: null,
    closed: null,
  },
};

describe('nextAttemptStep', () => {
  it('has an expectation for every attempt status', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...ATTEMPT_STATUSES].sort());
  });

  const cases = ATTEMPT_STATUSES.flatMap((from) =>
    Object.keys(OUTCOMES).map((outcome) => [from, outcome, EXPECTED[from][outcome] ?? null] as const),
  );

  it.each(cases)('%s + %s → %s', (from, outcome, expected) => {
    const step = nextAttemptStep(from, OUTCOMES[outcome] as AttemptOutcome);
    if (expected === null) {
      expect(step).toBeNull();
      return;
    }
    const [status, failureCode = null] = expected.split('/');
    expect(step).toEqual({ to: status, failureCode });
  });
});
