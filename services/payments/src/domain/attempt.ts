import type { AttemptFailureCode, AttemptStatus } from './payment';

/** What the scheme (or our own bookkeeping) says about one attempt. */
export type AttemptOutcome =
  /** The scheme forwarded the request to the payer's bank. */
  | { kind: 'sent' }
  /** The scheme or the payer's bank refused the request when it was sent. */
  | { kind: 'rejected'; reasonCode: string | null }
  /** No account answers to the alias. */
  | { kind: 'alias_unknown'; reasonCode: string | null }
  /** A technical failure at the scheme or a bank ended the request, at sending or later. */
  | { kind: 'failed'; reasonCode: string | null }
  | { kind: 'accepted_deferred' }
  /** Money arrived: the transfer's end-to-end id, and when the scheme says it was received. */
  | { kind: 'paid'; endToEndId: string; amount: bigint; receivedAt: Date }
  /** Money arrived, but not the amount asked for, or not to Sika's account: never credited, returned. */
  | {
      kind: 'mispaid';
      endToEndId: string;
      amount: bigint;
      receivedAt: Date;
      mismatch: 'amount' | 'payee';
    }
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
      return 'request_rejected';
    case 'alias_unknown':
      return 'alias_unknown';
    case 'failed':
      return 'bank_failure';
    case 'mispaid':
      return outcome.mismatch === 'amount' ? 'amount_mismatch' : 'payee_mismatch';
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
  alias_unknown: 'failed',
  failed: 'failed',
  accepted_deferred: 'accepted_deferred',
  paid: 'succeeded',
  mispaid: 'failed',
  declined: 'declined',
  expired: 'expired',
  closed: 'failed',
};

/** Which outcomes each attempt status still takes; anything else is stale (already known or superseded). */
const ACCEPTS: Record<AttemptStatus, ReadonlySet<AttemptOutcome['kind']>> = {
  pending: new Set([
    'sent',
    'rejected',
    'alias_unknown',
    'failed',
    'accepted_deferred',
    'paid',
    'mispaid',
    'declined',
    'expired',
    'closed',
  ]),
  sent: new Set(['accepted_deferred', 'paid', 'mispaid', 'declined', 'expired', 'failed']),
  accepted_deferred: new Set(['paid', 'mispaid', 'declined', 'expired', 'failed']),
  // Money that moved must be recorded whatever was believed before, so that it can be given back.
  declined: new Set(['paid', 'mispaid']),
  expired: new Set(['paid', 'mispaid']),
  failed: new Set(['paid', 'mispaid']),
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
