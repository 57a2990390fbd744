/**
 * A fund return: money a customer paid that Sika sends back whole (PUT /paiements/{end2endId}/retours).
 * pending: to send; sending: sent, the participant's verdict awaited (asked again now and then, which the
 * document makes harmless); rejected: to send again after a pause; sent: RETOUR_ENVOYE, done; abandoned: the
 * participant kept refusing it, operators take over.
 */
export type FundReturnStatus = 'pending' | 'sending' | 'rejected' | 'sent' | 'abandoned';

export interface FundReturnState {
  status: FundReturnStatus;
  /** How many times it was sent. */
  attempts: number;
}

/** Pauses before sending again a return the participant rejected; past the last, it is abandoned. */
export const RETURN_RETRY_DELAYS_MS = [2_000, 30_000, 300_000, 1_800_000, 7_200_000, 43_200_000] as const;

/** How long a sent return waits for its verdict before it is asked about again. */
export const RETURN_VERDICT_WAIT_MS = 60_000;

/** What payments is told about a return: it went, or it never will without an operator. */
export type FundReturnOutcome = 'SENT' | 'ABANDONED';

export interface FundReturnStep {
  status: FundReturnStatus;
  /** When the return is next due to be sent (or asked about); null once it ended. */
  nextAttemptAt: Date | null;
  /** Set when the return just ended: the news for payments. */
  outcome: FundReturnOutcome | null;
}

const isOver = (state: FundReturnState): boolean => state.status === 'sent' || state.status === 'abandoned';

/** The participant's verdict on a return (its callback, or its status in an answer). */
export function afterVerdict(
  state: FundReturnState,
  verdict: 'sent' | 'rejected',
  now: Date,
): FundReturnStep | null {
  if (isOver(state)) return null;
  if (verdict === 'sent') return { status: 'sent', nextAttemptAt: null, outcome: 'SENT' };
  const pause = RETURN_RETRY_DELAYS_MS[state.attempts - 1];
  if (pause === undefined) return { status: 'abandoned', nextAttemptAt: null, outcome: 'ABANDONED' };
  return { status: 'rejected', nextAttemptAt: new Date(now.getTime() + pause), outcome: null };
}

/** The return was sent (PUT answered 200) and is under way at the participant. */
export function afterSending(now: Date): FundReturnStep {
  return {
    status: 'sending',
    nextAttemptAt: new Date(now.getTime() + RETURN_VERDICT_WAIT_MS),
    outcome: null,
  };
}

/** The participant refused to take the return at all (403 past 90 days, 404 unknown): only operators can act. */
export function afterRefusal(): FundReturnStep {
  return { status: 'abandoned', nextAttemptAt: null, outcome: 'ABANDONED' };
}
