/**
 * A payout's credit transfer (POST /paiements with `txId` = the payout id). pending: to send; unknown: sent
 * but the answer was lost (timeout, 5xx, DU03), so it is read back with GET before it is ever sent again;
 * sent: ENVOYE, its verdict (PAIEMENT_ENVOYE / PAIEMENT_REJETE) awaited and read back now and then in case
 * the callback is lost; paid and failed are final, each published once.
 */
export type TransferStatus = 'pending' | 'unknown' | 'sent' | 'paid' | 'failed';

export interface TransferState {
  status: TransferStatus;
  /** Exchanges that got no usable answer in a row: the pause before the next one grows with them. */
  attempts: number;
}

export type TransferOutcome = { result: 'PAID' } | { result: 'FAILED'; reasonCode: string | undefined };

export interface TransferStep {
  status: TransferStatus;
  attempts: number;
  /** When it is next due (sent, read back, or sent again); null once final. */
  nextAttemptAt: Date | null;
  /** Set when the transfer just ended: the news for payouts. */
  outcome: TransferOutcome | null;
}

/** Pauses after exchanges without a usable answer; the last repeats (a payout stays pending, never lost). */
export const TRANSFER_RETRY_DELAYS_MS = [
  2_000, 10_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000,
] as const;

/** A sent transfer is read back after the verdict wait, then twice as long each time, up to this factor. */
export const VERDICT_WAIT_MAX_FACTOR = 64;

/** statutRaison of a txId the participant has seen before. */
const DUPLICATE_TX_ID = 'DU03';

const isFinal = (state: TransferState): boolean => state.status === 'paid' || state.status === 'failed';

const after = (now: Date, ms: number): Date => new Date(now.getTime() + ms);

function retryDelay(attempts: number): number {
  return (
    TRANSFER_RETRY_DELAYS_MS[Math.min(attempts, TRANSFER_RETRY_DELAYS_MS.length) - 1] ??
    TRANSFER_RETRY_DELAYS_MS[0]
  );
}

const ended = (outcome: TransferOutcome): TransferStep => ({
  status: outcome.result === 'PAID' ? 'paid' : 'failed',
  attempts: 0,
  nextAttemptAt: null,
  outcome,
});

/**
 * The transfer as the participant describes it (the POST's answer or a GET): IRREVOCABLE is paid, REJETE
 * failed with its reason. DU03 in the answer to a POST means this txId reached the participant before (an
 * earlier try whose answer was lost), so the transfer is read back at once; a read-back cannot be a
 * duplicate, so there it is no usable answer. ENVOYE (or INITIE, which a transfer without confirmation never
 * is) waits for its verdict: read back after `verdictWaitMs`, then twice as long each time.
 */
export function afterStatut(
  state: TransferState,
  answer: { statut?: string | undefined; statutRaison?: string | undefined },
  now: Date,
  verdictWaitMs: number,
): TransferStep | null {
  if (isFinal(state)) return null;
  const { statut, statutRaison } = answer;
  if (statut === 'IRREVOCABLE') return ended({ result: 'PAID' });
  if (statut === 'REJETE' && statutRaison === DUPLICATE_TX_ID) {
    if (state.status !== 'pending') return afterNoAnswer(state, now);
    return { status: 'unknown', attempts: state.attempts, nextAttemptAt: now, outcome: null };
  }
  if (statut === 'REJETE') return ended({ result: 'FAILED', reasonCode: statutRaison });
  const waits = state.status === 'sent' ? state.attempts + 1 : 0;
  const factor = Math.min(2 ** waits, VERDICT_WAIT_MAX_FACTOR);
  return {
    status: 'sent',
    attempts: waits,
    nextAttemptAt: after(now, verdictWaitMs * factor),
    outcome: null,
  };
}

/** A callback's verdict: PAIEMENT_ENVOYE or PAIEMENT_REJETE. Nothing for a transfer already ended. */
export function afterVerdict(state: TransferState, outcome: TransferOutcome): TransferStep | null {
  return isFinal(state) ? null : ended(outcome);
}

/**
 * What an error status of the participant means for a transfer. `refused`: 400 or 403 to the order itself, a
 * business refusal (a field, a rule such as a ceiling) that no retry changes. `not_taken`: 401 or 429,
 * refused before any processing (credentials, rate limit), so nothing happened and the same call is made
 * again later. `unknown`: anything else (5xx …), after which the participant may have processed the call.
 * A read-back is never `refused`: its refusal says nothing of a transfer that may have left.
 */
export type ProblemMeaning = 'refused' | 'not_taken' | 'unknown';

export function meaningOfProblem(status: number, call: 'send' | 'read_back'): ProblemMeaning {
  if (status === 401 || status === 429) return 'not_taken';
  if ((status === 400 || status === 403) && call === 'send') return 'refused';
  return 'unknown';
}

/** The participant refused the transfer outright (400, 403): it failed, without a scheme reason. */
export function afterRefusal(state: TransferState): TransferStep | null {
  return isFinal(state) ? null : ended({ result: 'FAILED', reasonCode: undefined });
}

/**
 * No usable answer (network, timeout, 5xx, an unexpected body). A POST may have reached the participant, so
 * the transfer becomes `unknown` and is read back before it is sent again; a GET is simply asked again.
 */
export function afterNoAnswer(state: TransferState, now: Date): TransferStep | null {
  if (isFinal(state)) return null;
  const attempts = state.attempts + 1;
  const status = state.status === 'pending' ? 'unknown' : state.status;
  return { status, attempts, nextAttemptAt: after(now, retryDelay(attempts)), outcome: null };
}

/** The participant did not take the call (401, 429): the same one is made again after a growing pause. */
export function afterNotTaken(state: TransferState, now: Date): TransferStep | null {
  if (isFinal(state)) return null;
  const attempts = state.attempts + 1;
  return { status: state.status, attempts, nextAttemptAt: after(now, retryDelay(attempts)), outcome: null };
}

/** A GET found no such transfer: it never reached the participant, so it is sent (again) now. */
export function afterNotFound(state: TransferState, now: Date): TransferStep | null {
  if (isFinal(state)) return null;
  return { status: 'pending', attempts: state.attempts, nextAttemptAt: now, outcome: null };
}
