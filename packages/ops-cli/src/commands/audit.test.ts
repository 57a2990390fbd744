import { payoutsV1, type ledgerV1, type paymentsV1, type webhooksV1 } from '@sika/contracts';

import { auditVerdict } from './audit';

const books = (overrides: Partial<ledgerV1.AuditBooksResponse> = {}): ledgerV1.AuditBooksResponse => ({
  unbalancedTransactions: [],
  merchantsOutOfBalance: [],
  creditedPayments: [{ paymentId: 'pay_1', paymentMovements: 1, feeMovements: 1 }],
  refundsPayable: 0n,
  payouts: [
    { payoutId: 'po_paid', reservations: 1, releases: 1, reversals: 0 },
    { payoutId: 'po_failed', reservations: 1, releases: 0, reversals: 1 },
    { payoutId: 'po_pending', reservations: 1, releases: 0, reversals: 0 },
  ],
  pendingPayouts: [{ merchantId: 'mer_1', pendingPayout: 300n }],
  balanceMismatches: [],
  adjustmentCount: 2,
  adjustmentTotal: 150n,
  unmatchedAdjustments: [],
  ...overrides,
});

const { PayoutStatus } = payoutsV1;
const payouts = (
  overrides: Partial<payoutsV1.AuditPayoutsResponse> = {},
): payoutsV1.AuditPayoutsResponse => ({
  pending: [{ merchantId: 'mer_1', amount: 300n }],
  settled: [
    { payoutId: 'po_paid', status: PayoutStatus.PAYOUT_STATUS_PAID },
    { payoutId: 'po_failed', status: PayoutStatus.PAYOUT_STATUS_FAILED },
  ],
  ...overrides,
});

const payments = (
  overrides: Partial<paymentsV1.AuditPaymentsResponse> = {},
): paymentsV1.AuditPaymentsResponse => ({
  paymentEventMessageIds: ['msg_1'],
  succeededPaymentIds: ['pay_1'],
  owedRefunds: [{ paymentId: 'pay_1', txId: 'SIKA2', endToEndId: 'E2', refundStatus: 'sent' }],
  ...overrides,
});

const events = (overrides: Partial<webhooksV1.AuditEventsResponse> = {}): webhooksV1.AuditEventsResponse => ({
  sourceMessageIds: ['msg_1', 'msg_2'],
  undeliveredEventIds: [],
  ...overrides,
});

describe('auditVerdict', () => {
  it('finds nothing wrong with consistent books, payments and events', () => {
    expect(auditVerdict(books(), payments(), events(), payouts())).toEqual([]);
  });

  it('reports a payment event without its evt_ event, and an event never queued for delivery', () => {
    const violations = auditVerdict(
      books(),
      payments({ paymentEventMessageIds: ['msg_1', 'msg_3'] }),
      events({ undeliveredEventIds: ['evt_9'] }),
      payouts(),
    );
    expect(violations).toEqual([
      { invariant: 'one event per status change', detail: 'payment event msg_3 has no evt_ event' },
      {
        invariant: 'one event per status change',
        detail: "evt_9 was never queued for its merchant's endpoint",
      },
    ]);
  });

  it('reports each broken invariant', () => {
    const violations = auditVerdict(
      books({
        unbalancedTransactions: ['7'],
        merchantsOutOfBalance: ['mer_1'],
        creditedPayments: [
          { paymentId: 'pay_1', paymentMovements: 2, feeMovements: 1 },
          { paymentId: 'pay_9', paymentMovements: 1, feeMovements: 1 },
        ],
        refundsPayable: 500n,
      }),
      payments({
        succeededPaymentIds: ['pay_1', 'pay_2'],
        owedRefunds: [
          { paymentId: 'pay_1', txId: 'SIKA2', endToEndId: 'E2', refundStatus: 'pending' },
          { paymentId: 'pay_3', txId: 'SIKA3' },
        ],
      }),
      events(),
      payouts(),
    );
    expect(violations.map(({ invariant }) => invariant)).toEqual([
      'double entry',
      'balance',
      'one credit per success',
      'one credit per success',
      'one credit per success',
      'money paid by mistake goes back',
      'money paid by mistake goes back',
      'money paid by mistake goes back',
    ]);
    expect(violations.map(({ detail }) => detail).join('\n')).toMatch(
      /pay_9 has payment movements but did not succeed/,
    );
    expect(violations.map(({ detail }) => detail).join('\n')).toMatch(
      /SIKA3 of pay_3: refund never recorded/,
    );
  });
});

describe('auditVerdict on adjustments', () => {
  it('reports every adjustment whose record, ledger transaction and movement do not agree', () => {
    expect(auditVerdict(books({ unmatchedAdjustments: ['adj_1'] }), payments(), events(), payouts())).toEqual(
      [
        {
          invariant: 'adjustments',
          detail: 'adj_1: its record, ledger transaction and movement are not one of each for one amount',
        },
      ],
    );
  });
});

describe('auditVerdict on maintained balances', () => {
  it('reports every account whose balance is not the sum of its postings', () => {
    const violations = auditVerdict(
      books({
        balanceMismatches: [
          { ownerId: 'mer_1', kind: 'available', balance: 1_000n, postingsTotal: 990n },
          { ownerId: 'sika', kind: 'scheme_settlement', balance: -5n, postingsTotal: -6n },
        ],
      }),
      payments(),
      events(),
      payouts(),
    );
    expect(violations).toEqual([
      {
        invariant: 'maintained balance',
        detail: 'mer_1 available: the balance is 1000, its postings sum to 990',
      },
      {
        invariant: 'maintained balance',
        detail: 'sika scheme_settlement: the balance is -5, its postings sum to -6',
      },
    ]);
  });
});

describe('auditVerdict on payouts', () => {
  it('reports a pending_payout that is not the sum of the pending payouts, either way', () => {
    const violations = auditVerdict(
      books({
        pendingPayouts: [
          { merchantId: 'mer_1', pendingPayout: 200n },
          { merchantId: 'mer_2', pendingPayout: 5n },
        ],
      }),
      payments(),
      events(),
      payouts(),
    );
    expect(violations).toEqual([
      {
        invariant: 'payout reservations',
        detail: 'mer_1: pending_payout is 200, its pending payouts sum to 300',
      },
      { invariant: 'payout reservations', detail: 'mer_2: pending_payout is 5 without a pending payout' },
    ]);
  });

  it('reports a settled payout whose reservation was not released exactly once, the right way', () => {
    const violations = auditVerdict(
      books({
        payouts: [
          { payoutId: 'po_paid', reservations: 1, releases: 0, reversals: 1 },
          { payoutId: 'po_failed', reservations: 1, releases: 0, reversals: 0 },
        ],
      }),
      payments(),
      events(),
      payouts(),
    );
    expect(violations.map((violation) => violation.detail)).toEqual([
      'po_paid (paid): 1 reservations, 0 releases, 1 reversals',
      'po_failed (failed): 1 reservations, 0 releases, 0 reversals',
    ]);
  });
});
