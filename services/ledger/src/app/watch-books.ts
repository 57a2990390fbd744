import type { Logger } from '@sika/platform';
import { booksViolations, type Violation } from '../domain/books-watch';
import type { BooksWatchStore, PaymentDecisions, PayoutDecisions } from './ports';

/** Ledger transactions one round reads at most; a larger backlog is read by the next rounds, at once. */
const ROUND_LIMIT = 20_000;
/**
 * Each round reads again this many transactions before the last one it read: one written by a statement that
 * was slow to commit (a stall) may have an id below ones already committed and read.
 */
const MARGIN = 5_000n;
/** The first round starts this far back, as if it had been running. */
const FIRST_LOOK_BACK = 20_000n;
/** Violations already reported, so that the margin's second reading does not report them again. */
const REPORTED_KEPT = 10_000;

/**
 * The books watch themselves (architecture invariant 8's last line of defence): every round reads what the
 * ledger booked since the previous one, checks the invariants that can be judged from that alone (double
 * entry, each merchant balance kept as the sum of its postings, one credit per payment, each payout booked
 * once each way), and asks payments and payouts whether each credit, release and reversal follows a decision
 * they committed: a credited payment must have succeeded, a released payout be paid, a reversed one failed, a
 * reserved one not refused. A violation is logged as an error and counted, once, within a round of its
 * booking.
 */
export class WatchBooks {
  private position: bigint | undefined;
  private readonly reported = new Set<string>();

  constructor(
    private readonly deps: {
      store: BooksWatchStore;
      payments: PaymentDecisions;
      payouts: PayoutDecisions;
      logger: Logger;
      /** Counts a violation (sika_audit_violations_total). */
      onViolation: (violation: Violation) => void;
    },
  ) {}

  /** One round: how many transactions it read beyond the margin (more than 0: a backlog, read again at once). */
  async execute(): Promise<number> {
    const { store, payments, payouts } = this.deps;
    if (this.position === undefined) {
      const last = await store.lastPosition();
      this.position = last > FIRST_LOOK_BACK ? last - FIRST_LOOK_BACK : 0n;
    }
    const from = this.position > MARGIN ? this.position - MARGIN : 0n;
    const { bookings, position, read } = await store.bookedAfter(from, ROUND_LIMIT);
    const [succeededPaymentIds, payoutStatuses] = await Promise.all([
      payments.succeeded(bookings.credits.map((credit) => credit.paymentId)),
      payouts.statuses(bookings.payouts.map((payout) => payout.payoutId)),
    ]);
    for (const violation of booksViolations(bookings, { succeededPaymentIds, payoutStatuses })) {
      this.report(violation);
    }
    const advanced = position > this.position;
    this.position = advanced ? position : this.position;
    return read === ROUND_LIMIT && advanced ? read : 0;
  }

  private report(violation: Violation): void {
    const key = `${violation.invariant}/${violation.subject}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    if (this.reported.size > REPORTED_KEPT) {
      const [oldest] = this.reported;
      if (oldest !== undefined) this.reported.delete(oldest);
    }
    this.deps.onViolation(violation);
    this.deps.logger.error(
      { invariant: violation.invariant, subject: violation.subject, detail: violation.detail },
      'the books broke an invariant',
    );
  }
}
