import { PAYOUT_KINDS } from './payout';

/**
 * The invariants the ledger checks continuously over what it booked recently (architecture invariants 1, 3,
 * 4 and 14), as pure rules over what it read of its own books and what payments and payouts say they decided.
 * A violation names its invariant as the operator's audit does, and the records it is about; never a
 * customer's alias or name.
 */

export interface Violation {
  invariant:
    | 'double entry'
    | 'balance'
    | 'one credit per success'
    | 'money paid by mistake goes back'
    | 'payout reservations';
  /** What it is about (an id, a merchant and mode): with the invariant, what makes it one violation. */
  subject: string;
  detail: string;
}

/** What the ledger booked since the watch last looked (and a margin before that). */
export interface RecentBookings {
  /** Ledger transactions whose postings do not sum to zero, or that have fewer than two. */
  unbalanced: string[];
  /**
   * Merchant accounts posted to recently whose postings sum to a negative amount, or to another amount than
   * the balance the ledger keeps.
   */
  wrongBalances: {
    merchantId: string;
    livemode: boolean;
    kind: string;
    balance: bigint;
    postingsTotal: bigint;
  }[];
  /** refunds_payable of a mode, when it is negative. */
  negativeRefundsPayable: { livemode: boolean; balance: bigint }[];
  /** Every payment credited recently, with all its `payment` and `fee` movements counted. */
  credits: { paymentId: string; paymentMovements: number; feeMovements: number }[];
  /** Every payout with a recent booking, with all its ledger transactions counted by kind. */
  payouts: { payoutId: string; reservations: number; releases: number; reversals: number }[];
}

/** What the deciders answered about the records of RecentBookings. */
export interface Decisions {
  /** The credited payments that succeeded, per payments. */
  succeededPaymentIds: ReadonlySet<string>;
  /** The status payouts gives each payout it knows (reserving, refused, pending, paid, failed). */
  payoutStatuses: ReadonlyMap<string, string>;
}

/** Statuses of a payout whose amount is rightly reserved: every one but `refused` (and none: unknown). */
const RESERVED_STATUSES: ReadonlySet<string> = new Set(['reserving', 'pending', 'paid', 'failed']);

export function booksViolations(books: RecentBookings, decisions: Decisions): Violation[] {
  const violations: Violation[] = [];
  for (const id of books.unbalanced) {
    violations.push({
      invariant: 'double entry',
      subject: id,
      detail: `ledger transaction ${id} does not balance`,
    });
  }
  for (const { merchantId, livemode, kind, balance, postingsTotal } of books.wrongBalances) {
    violations.push({
      invariant: 'balance',
      subject: `${merchantId}/${livemode ? 'live' : 'test'}/${kind}`,
      detail: `${merchantId} (${livemode ? 'live' : 'test'}): ${kind} is ${balance}, its postings sum to ${postingsTotal}`,
    });
  }
  for (const { livemode, balance } of books.negativeRefundsPayable) {
    violations.push({
      invariant: 'money paid by mistake goes back',
      subject: `refunds_payable/${livemode ? 'live' : 'test'}`,
      detail: `refunds payable is ${balance} in ${livemode ? 'live' : 'test'} mode`,
    });
  }
  for (const { paymentId, paymentMovements, feeMovements } of books.credits) {
    if (paymentMovements !== 1 || feeMovements !== 1) {
      violations.push({
        invariant: 'one credit per success',
        subject: paymentId,
        detail: `${paymentId} credited with ${paymentMovements} payment and ${feeMovements} fee movements`,
      });
    }
    if (!decisions.succeededPaymentIds.has(paymentId)) {
      violations.push({
        invariant: 'one credit per success',
        subject: `${paymentId}/not succeeded`,
        detail: `${paymentId} has payment movements but did not succeed`,
      });
    }
  }
  for (const payout of books.payouts) {
    const status = decisions.payoutStatuses.get(payout.payoutId);
    const problem = payoutProblem(payout, status);
    if (problem !== undefined) {
      violations.push({ invariant: 'payout reservations', subject: payout.payoutId, detail: problem });
    }
  }
  return violations;
}

function payoutProblem(
  payout: RecentBookings['payouts'][number],
  status: string | undefined,
): string | undefined {
  const { payoutId, reservations, releases, reversals } = payout;
  const counts = `${reservations} reservations, ${releases} releases, ${reversals} reversals`;
  if (reservations > 1 || releases > 1 || reversals > 1 || releases + reversals > reservations) {
    return `${payoutId}: ${counts}`;
  }
  if (reservations === 1 && !RESERVED_STATUSES.has(status ?? '')) {
    return `${payoutId} is reserved but payouts has it ${status ?? 'unknown'}`;
  }
  if (releases === 1 && status !== 'paid')
    return `${payoutId} was released as paid but payouts has it ${status ?? 'unknown'}`;
  if (reversals === 1 && status !== 'failed') {
    return `${payoutId} was reversed but payouts has it ${status ?? 'unknown'}`;
  }
  return undefined;
}

/** The ledger transaction kinds the watch counts per payout. */
export const WATCHED_PAYOUT_KINDS = [PAYOUT_KINDS.reservation, PAYOUT_KINDS.paid, PAYOUT_KINDS.reversal];
