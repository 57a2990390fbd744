import type { PayoutAliasType, PayoutFailureCode, PayoutMethod } from '@sika/rules';
import { payoutFailureCodeOf } from '@sika/rules';

/** Spec §3.3's statuses, and the two a merchant never sees (see the Prisma schema). */
export type PayoutState = 'reserving' | 'pending' | 'paid' | 'failed' | 'refused';

export const CURRENCY = 'XOF';

/** Where a payout goes: the payout account as it was when the payout was made. */
export interface Destination {
  aliasType: PayoutAliasType;
  /** Clear, for the transfer only: never shown, never logged. */
  alias: string;
  aliasMasked: string;
  holderName: string;
}

export interface Payout {
  id: string;
  merchantId: string;
  livemode: boolean;
  status: PayoutState;
  method: PayoutMethod;
  /** Null: the whole available balance. */
  requestedAmount: bigint | null;
  /** What the ledger reserved; null until then. */
  amount: bigint | null;
  currency: string;
  destination: Destination;
  failureCode: PayoutFailureCode | null;
  reasonCode: string | null;
  /** The daily run's day (`YYYY-MM-DD`) of an automatic payout. */
  automaticFor: string | null;
  createdAt: Date;
  paidAt: Date | null;
  failedAt: Date | null;
}

/** A payout a merchant can see: one whose reservation the ledger accepted. */
export type VisiblePayout = Payout & { status: 'pending' | 'paid' | 'failed'; amount: bigint };

export function isVisible(payout: Payout): payout is VisiblePayout {
  return payout.status !== 'reserving' && payout.status !== 'refused' && payout.amount !== null;
}

/** How long the request that records a payout keeps reserving it before the sweeper may take over. */
export const RESERVE_LEASE_MS = 15_000;

export type TransferOutcome = { result: 'paid' } | { result: 'failed'; reasonCode: string | undefined };

/**
 * A pending payout's end: paid (`paid_at`) or failed (`failure_code` from the scheme's reason). Undefined when
 * the payout is not pending (already settled by an earlier copy of the news): nothing to do.
 */
export function settle(payout: Payout, outcome: TransferOutcome, now: Date): VisiblePayout | undefined {
  if (payout.status !== 'pending' || payout.amount === null) return undefined;
  if (outcome.result === 'paid') return { ...payout, amount: payout.amount, status: 'paid', paidAt: now };
  return {
    ...payout,
    amount: payout.amount,
    status: 'failed',
    failedAt: now,
    failureCode: payoutFailureCodeOf(outcome.reasonCode),
    reasonCode: outcome.reasonCode ?? null,
  };
}

/** The public event of a payout's end. */
export const eventTypeOf = (payout: VisiblePayout): 'payout.paid' | 'payout.failed' =>
  payout.status === 'failed' ? 'payout.failed' : 'payout.paid';

/** The `motif` of a payout's transfer, as the merchant reads it on its statement. */
export const transferReasonOf = (payout: Payout): string => `Sika payout ${payout.id}`;
