import { AppError, isId } from '@sika/platform/pure';
import { merchantAccount, systemAccount } from './accounts';
import { assertBalanced, type Posting } from './double-entry';

/** The ledger transaction kinds of a payout's life: each happens at most once per payout id. */
export const PAYOUT_KINDS = {
  reservation: 'payout_reservation',
  paid: 'payout_paid',
  reversal: 'payout_reversal',
} as const;

export type PayoutOutcome = 'paid' | 'failed';

export interface PayoutReservationPlan {
  amount: bigint;
  postings: Posting[];
}

export function validatePayoutId(payoutId: string): void {
  if (!isId('po', payoutId)) {
    throw new AppError('parameter_invalid', 'payout_id must be a payout id (po_…).', { param: 'payout_id' });
  }
}

export function validateRequestedAmount(requested: bigint | undefined): void {
  if (requested !== undefined && requested < 1n) {
    throw new AppError('parameter_invalid', 'amount must be at least 1.', { param: 'amount' });
  }
}

/**
 * What a payout reserves from the available balance read under the merchant's balance lock: the amount asked
 * for, or all of it. More than is available, or an empty balance, is refused and nothing is written, so the
 * balance can never go negative.
 */
export function planPayoutReservation(
  available: bigint,
  requested: bigint | undefined,
): PayoutReservationPlan {
  const amount = requested ?? available;
  if (amount < 1n) {
    throw new AppError(
      'balance_insufficient',
      'The available balance is empty: there is nothing to pay out.',
      {
        param: 'amount',
      },
    );
  }
  if (amount > available) {
    throw new AppError(
      'balance_insufficient',
      `The amount (${amount}) is more than the available balance (${available}).`,
      { param: 'amount' },
    );
  }
  const postings: Posting[] = [
    { account: merchantAccount('available'), amount: -amount },
    { account: merchantAccount('pending_payout'), amount },
  ];
  assertBalanced(postings);
  return { amount, postings };
}

/**
 * The end of a reservation: a paid payout's money leaves through the scheme; a failed one's goes back to the
 * available balance.
 */
export function planPayoutRelease(outcome: PayoutOutcome, amount: bigint): Posting[] {
  const postings: Posting[] = [
    { account: merchantAccount('pending_payout'), amount: -amount },
    outcome === 'paid'
      ? { account: systemAccount('scheme_settlement'), amount }
      : { account: merchantAccount('available'), amount },
  ];
  assertBalanced(postings);
  return postings;
}

export const RELEASE_KINDS: Readonly<Record<PayoutOutcome, string>> = {
  paid: PAYOUT_KINDS.paid,
  failed: PAYOUT_KINDS.reversal,
};
