import type { AttemptFailureCode, AttemptStatus } from './payment';

/** The scheme's reason code for an unknown alias (ISO 20022 BE23: "account proxy invalid"). */
export const UNKNOWN_ALIAS_REASON = 'BE23';

/** What the scheme (or our own bookkeeping) says about one attempt. */
export type AttemptOutcome =
  /** The scheme forwarded the request to the payer's bank. */
  | { kind: 'sent' }
  /** The scheme refused the request when it was sent (e.g. BE23, unknown alias). */
  | { kind: 'rejected'; reasonCode: string | null }
  | { kind: 'accepted_deferred' }
  | { kind: 'paid'; endToEndId: string | null }
  | { kind: 'declined'; reasonCode: string | null }
  /** The request expired at the payer's bank without an answer. */
  | { kind: 'expired' }
  /** The payment closed (canceled, expired) before the request could leave: it never will. */
  | { kind: 'closed' };

export interface AttemptStep {
  to: AttemptStatus;
  failureCode: AttemptFailureCode | null;
}

function failureCodeOf(outcome: AttemptOutcome): AttemptFailureCode | null {
  switch (outcome.kind) {
    case 'rejected':
      return outcome.reasonCode === UNKNOWN_ALIAS_REASON ? 'alias_unknown' : 'request_rejected';
    case 'declined':
      return 'payer_declined';
    case 'expired':
      return 'request_expired';
    case 'closed':
      return 'payment_closed';
    case 'sent':
    case 'accepted_deferred':
    case 'paid':
      return null;
  }
}

const STATUS_AFTER: Record<AttemptOutcome['kind'], AttemptStatus> = {
  sent: 'sent',
  rejected: 'failed',
  accepted_deferred: 'accepted_deferred',
  paid: 'succeeded',
  declined: 'declined',
  expired: 'expired',
  closed: 'failed',
};

/** Which outcomes each attempt status still takes; anything else is stale (already known or superseded). */
const ACCEPTS: Record<AttemptStatus, ReadonlySet<AttemptOutcome['kind']>> = {
  pending: new Set(['sent', 'rejected', 'accepted_deferred', 'paid', 'declined', 'expired', 'closed']),
  sent: new Set(['accepted_deferred', 'paid', 'declined', 'expired']),
  accepted_deferred: new Set(['paid', 'declined', 'expired']),
  // Money that moved must be recorded whatever was believed before, so that it can be given back.
  declined: new Set(['paid']),
  expired: new Set(['paid']),
  failed: new Set(['paid']),
  succeeded: new Set(),
};

/**
 * The attempt's next status for an outcome, or null when the outcome is stale: a redelivered or late
 * message, which must change nothing (a succeeded attempt in particular never changes again).
 */
export function nextAttemptStep(from: AttemptStatus, outcome: AttemptOutcome): AttemptStep | null {
  if (!ACCEPTS[from].has(outcome.kind)) return null;
  return { to: STATUS_AFTER[outcome.kind], failureCode: failureCodeOf(outcome) };
}
