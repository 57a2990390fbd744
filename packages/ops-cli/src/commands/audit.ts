import { payoutsV1, type ledgerV1, type paymentsV1, type webhooksV1 } from '@sika/contracts';

import type { Services } from '../services';

/** One broken invariant (docs/architecture.md, "Invariants"), with the records it concerns. */
export interface Violation {
  invariant: string;
  detail: string;
}

export interface AuditReport {
  livemode: boolean;
  succeeded_payments: number;
  owed_refunds: number;
  refunds_payable: number;
  pending_payouts: number;
  settled_payouts: number;
  /** Operators' corrections (ledger:adjust) in the mode: how many, and their sum. */
  adjustments: number;
  adjustments_total: number;
  violations: Violation[];
}

/**
 * The verdict on one mode at a quiet moment, from the ledger's books and payments' records: every ledger
 * transaction balances; every merchant's balance is the sum of its movements and never negative; every
 * account's maintained balance is the sum of its postings; every adjustment has its record, its ledger
 * transaction and its movement, of one merchant and amount; every
 * succeeded payment has exactly one `payment` and one `fee` movement and nothing else has any; every attempt
 * whose money goes back has had it returned, and refunds payable is back to zero; every payment event still
 * in payments' outbox (any mode) became one `evt_` event, queued for the merchant's endpoint if it has one;
 * each merchant's pending_payout is the sum of its pending payouts, and every paid or failed payout released
 * its reservation exactly once (a failed one with exactly one payout_reversal).
 */
export function auditVerdict(
  books: ledgerV1.AuditBooksResponse,
  payments: paymentsV1.AuditPaymentsResponse,
  events: webhooksV1.AuditEventsResponse,
  payouts: payoutsV1.AuditPayoutsResponse,
): Violation[] {
  const violations: Violation[] = [];
  const report = (invariant: string, detail: string) => violations.push({ invariant, detail });
  for (const id of books.unbalancedTransactions)
    report('double entry', `ledger transaction ${id} does not balance`);
  for (const merchant of books.merchantsOutOfBalance) {
    report('balance', `${merchant}: available is negative or not the sum of its movements`);
  }
  for (const adjustmentId of books.unmatchedAdjustments) {
    report(
      'adjustments',
      `${adjustmentId}: its record, ledger transaction and movement are not one of each for one amount`,
    );
  }
  for (const { ownerId, kind, balance, postingsTotal } of books.balanceMismatches) {
    report(
      'maintained balance',
      `${ownerId} ${kind}: the balance is ${balance}, its postings sum to ${postingsTotal}`,
    );
  }
  const credited = new Map(books.creditedPayments.map((credit) => [credit.paymentId, credit]));
  for (const paymentId of payments.succeededPaymentIds) {
    const credit = credited.get(paymentId);
    if (credit?.paymentMovements !== 1 || credit.feeMovements !== 1) {
      report(
        'one credit per success',
        `${paymentId} succeeded with ${credit?.paymentMovements ?? 0} payment and ${credit?.feeMovements ?? 0} fee movements`,
      );
    }
    credited.delete(paymentId);
  }
  for (const paymentId of credited.keys()) {
    report('one credit per success', `${paymentId} has payment movements but did not succeed`);
  }
  for (const refund of payments.owedRefunds) {
    if (refund.refundStatus !== 'sent') {
      const transfer = refund.endToEndId === undefined ? '' : ` (transfer ${refund.endToEndId})`;
      report(
        'money paid by mistake goes back',
        `${refund.txId}${transfer} of ${refund.paymentId}: refund ${refund.refundStatus ?? 'never recorded'}`,
      );
    }
  }
  if (books.refundsPayable !== 0n) {
    report('money paid by mistake goes back', `refunds payable is ${books.refundsPayable}, not 0`);
  }
  const stored = new Set(events.sourceMessageIds);
  for (const messageId of payments.paymentEventMessageIds) {
    if (!stored.has(messageId))
      report('one event per status change', `payment event ${messageId} has no evt_ event`);
  }
  for (const eventId of events.undeliveredEventIds) {
    report('one event per status change', `${eventId} was never queued for its merchant's endpoint`);
  }
  for (const violation of payoutViolations(books, payouts)) violations.push(violation);
  return violations;
}

/** Invariant 4's payout half: the ledger's reservations against payouts' records. */
function payoutViolations(
  books: ledgerV1.AuditBooksResponse,
  payouts: payoutsV1.AuditPayoutsResponse,
): Violation[] {
  const violations: Violation[] = [];
  const report = (detail: string) => violations.push({ invariant: 'payout reservations', detail });
  const ledgerPending = new Map(books.pendingPayouts.map((row) => [row.merchantId, row.pendingPayout]));
  for (const { merchantId, amount } of payouts.pending) {
    const reserved = ledgerPending.get(merchantId) ?? 0n;
    if (reserved !== amount) {
      report(`${merchantId}: pending_payout is ${reserved}, its pending payouts sum to ${amount}`);
    }
    ledgerPending.delete(merchantId);
  }
  for (const [merchantId, reserved] of ledgerPending) {
    report(`${merchantId}: pending_payout is ${reserved} without a pending payout`);
  }
  const postings = new Map(books.payouts.map((row) => [row.payoutId, row]));
  for (const { payoutId, status } of payouts.settled) {
    const row = postings.get(payoutId);
    const failed = status === payoutsV1.PayoutStatus.PAYOUT_STATUS_FAILED;
    const expected = { reservations: 1, releases: failed ? 0 : 1, reversals: failed ? 1 : 0 };
    const found = {
      reservations: row?.reservations ?? 0,
      releases: row?.releases ?? 0,
      reversals: row?.reversals ?? 0,
    };
    if (JSON.stringify(found) !== JSON.stringify(expected)) {
      report(
        `${payoutId} (${failed ? 'failed' : 'paid'}): ${found.reservations} reservations, ` +
          `${found.releases} releases, ${found.reversals} reversals`,
      );
    }
  }
  return violations;
}

export async function audit(
  services: Pick<Services, 'auditBooks' | 'auditPayments' | 'auditEvents' | 'auditPayouts'>,
  { livemode }: { livemode: boolean },
): Promise<AuditReport> {
  // Payouts before the books: a payout settling in between then shows as pending in both, not as a mismatch.
  const payouts = await services.auditPayouts(livemode);
  const [books, payments, events] = await Promise.all([
    services.auditBooks(livemode),
    services.auditPayments(livemode),
    services.auditEvents(),
  ]);
  return {
    livemode,
    succeeded_payments: payments.succeededPaymentIds.length,
    owed_refunds: payments.owedRefunds.length,
    refunds_payable: Number(books.refundsPayable),
    pending_payouts: payouts.pending.length,
    settled_payouts: payouts.settled.length,
    adjustments: books.adjustmentCount,
    adjustments_total: Number(books.adjustmentTotal),
    violations: auditVerdict(books, payments, events, payouts),
  };
}

export function describeAudit(report: AuditReport): string {
  const mode = report.livemode ? 'live' : 'test';
  const summary =
    `${mode} mode: ${report.succeeded_payments} succeeded payments, ${report.owed_refunds} transfers owed ` +
    `back, refunds payable ${report.refunds_payable}, ${report.settled_payouts} settled payouts, ` +
    `${report.pending_payouts} merchants with pending payouts, ${report.adjustments} adjustments ` +
    `(${report.adjustments_total} in all)`;
  if (report.violations.length === 0) return `${summary}: every invariant holds.`;
  return [
    `${summary}: ${report.violations.length} violations`,
    ...report.violations.map(({ invariant, detail }) => `- ${invariant}: ${detail}`),
  ].join('\n');
}
