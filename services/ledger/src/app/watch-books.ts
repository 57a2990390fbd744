import type { Clock, Logger } from '@sika/platform';
import { BalanceTrail } from '../domain/balance-trail';
import { booksViolations, type Violation } from '../domain/books-watch';
import { WatchPosition } from '../domain/watch-position';
import type { BooksWatchStore, PaymentDecisions, PayoutDecisions } from './ports';

/** Ledger transactions one round reads at most; a larger backlog is read by the next rounds, at once. */
const ROUND_LIMIT = 20_000;
/**
 * How long an id skipped by a round is looked for again: far past a stalled writer (a statement may take 10 s);
 * one still missing then was rolled back or lost a conflict, which leave an id unused.
 */
const GAP_WAIT_MS = 10 * 60_000;
/** The gaps kept at most: more than a burst of conflicting writes leaves between two rounds. */
const MAX_GAPS = 10_000;
/** The first round starts this far back, as if it had been running. */
const FIRST_LOOK_BACK = 20_000n;
/** Merchant accounts whose balance the watch holds at most (the least recently posted to go first). */
const BALANCES_HELD = 50_000;
/** Violations already reported, so that an account still wrong in a later round is not reported again. */
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
  private position: WatchPosition | undefined;
  private readonly reported = new Set<string>();
  private readonly balances = new BalanceTrail(BALANCES_HELD);

  constructor(
    private readonly deps: {
      store: BooksWatchStore;
      payments: PaymentDecisions;
      payouts: PayoutDecisions;
      logger: Logger;
      clock: Clock;
      /** Counts a violation (sika_audit_violations_total). */
      onViolation: (violation: Violation) => void;
    },
  ) {}

  /** One round: how many transactions it read in order when that is a full round (a backlog: read again at once). */
  async execute(): Promise<number> {
    const { store, payments, payouts, clock } = this.deps;
    if (this.position === undefined) {
      const last = await store.lastPosition();
      this.position = new WatchPosition(last > FIRST_LOOK_BACK ? last - FIRST_LOOK_BACK : 0n, {
        gapWaitMs: GAP_WAIT_MS,
        maxGaps: MAX_GAPS,
      });
    }
    const position = this.position;
    const reading = await store.bookedAfter(
      position.after,
      ROUND_LIMIT,
      position.pendingGaps(clock.now().getTime()),
      (accountId) => this.balances.holds(accountId),
    );
    const { readAfter, gapsFound, complete } = reading;
    const bookings = { ...reading.bookings, wrongBalances: this.balances.check(reading.balances) };
    const [succeededPaymentIds, payoutStatuses] = await Promise.all([
      payments.succeeded(bookings.credits.map((credit) => credit.paymentId)),
      payouts.statuses(bookings.payouts.map((payout) => payout.payoutId)),
    ]);
    for (const violation of booksViolations(bookings, { succeededPaymentIds, payoutStatuses })) {
      this.report(violation);
    }
    // Only now, the round having gone through: a round that failed (a peer not answering) is read again whole.
    this.balances.record(reading.balances, complete);
    position.advance(readAfter, gapsFound, clock.now().getTime());
    return complete ? 0 : readAfter.length;
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
