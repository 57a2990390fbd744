import type { DemandePaiementStatutRaison } from '@sika/pispi';

/**
 * What a reason code of the scheme means for a request-to-pay, decided once for every code Sika can read:
 * - alias_unknown: no account answers to the payer's alias;
 * - declined: the payer, or their bank on their behalf, does not pay this request (another alias may);
 * - expired: the request ran out without an answer;
 * - failed: a technical failure at the scheme or a bank, which no customer chose;
 * - already_answered: the request was answered before; that first answer is what counts.
 */
export type ReasonMeaning = 'alias_unknown' | 'declined' | 'expired' | 'failed' | 'already_answered';

export interface ReasonEntry {
  meaning: ReasonMeaning;
  /** The document's own title for the code. */
  title: string;
}

/** Every DemandePaiementStatutRaison of the API Business. The README's table is checked against it. */
export const REQUEST_REASONS: Readonly<Record<DemandePaiementStatutRaison, ReasonEntry>> = {
  BE23: { meaning: 'alias_unknown', title: 'Alias invalid' },
  DU03: { meaning: 'failed', title: 'Duplicate transaction' },
  AC04: { meaning: 'declined', title: 'Closed account number' },
  AC06: { meaning: 'declined', title: 'Blocked account' },
  AEXR: { meaning: 'expired', title: 'Already expired RTP' },
  AG03: { meaning: 'declined', title: 'Transaction not supported' },
  AG10: { meaning: 'failed', title: 'Agent suspended' },
  AG11: { meaning: 'failed', title: 'Creditor agent suspended' },
  ALAC: { meaning: 'already_answered', title: 'Already accepted RTP' },
  AM02: { meaning: 'declined', title: 'Not allowed amount' },
  AM09: { meaning: 'declined', title: 'Wrong amount' },
  AM14: { meaning: 'declined', title: 'Amount exceeds agreed limit' },
  APAR: { meaning: 'already_answered', title: 'Already paid RTP' },
  ARFR: { meaning: 'already_answered', title: 'Already refused RTP' },
  ARJR: { meaning: 'already_answered', title: 'Already rejected RTP' },
  BE01: { meaning: 'declined', title: 'Inconsistent with end customer' },
  BE05: { meaning: 'declined', title: 'Unrecognised initiating party' },
  FR01: { meaning: 'declined', title: 'Fraud' },
  RR07: { meaning: 'declined', title: 'Remittance information invalid' },
};

/**
 * Settlement failures (PaiementStatutRaison) that an RTP_REJETE may carry when the transfer paying the
 * request could not settle: technical, whoever's bank it was.
 */
export const SETTLEMENT_FAILURE_REASONS: Readonly<Record<string, ReasonEntry>> = {
  AB03: { meaning: 'failed', title: 'Aborted settlement timeout' },
  AB04: { meaning: 'failed', title: 'Aborted settlement fatal error' },
  AB08: { meaning: 'failed', title: 'Offline creditor agent' },
  AB09: { meaning: 'failed', title: 'Error creditor agent' },
  AM04: { meaning: 'failed', title: 'Insufficient funds (participant guarantee)' },
  IRNR: { meaning: 'failed', title: 'Initial RTP never received' },
};

/**
 * A code outside both tables, or none, is a refusal: the payment stays open to another attempt while one is
 * possible. Taking it for a technical failure would end the payment on a code nobody documented.
 */
export const UNLISTED_REASON_MEANING: ReasonMeaning = 'declined';

export function meaningOfReason(code: string | undefined): ReasonMeaning {
  if (code === undefined) return UNLISTED_REASON_MEANING;
  const entry =
    (Object.hasOwn(REQUEST_REASONS, code)
      ? REQUEST_REASONS[code as DemandePaiementStatutRaison]
      : undefined) ??
    (Object.hasOwn(SETTLEMENT_FAILURE_REASONS, code) ? SETTLEMENT_FAILURE_REASONS[code] : undefined);
  return entry?.meaning ?? UNLISTED_REASON_MEANING;
}
