import { booksViolations, type RecentBookings } from './books-watch';

const nothing: RecentBookings = {
  unbalanced: [],
  wrongBalances: [],
  negativeRefundsPayable: [],
  credits: [],
  payouts: [],
};
const decided = (succeeded: string[] = [], payouts: Record<string, string> = {}) => ({
  succeededPaymentIds: new Set(succeeded),
  payoutStatuses: new Map(Object.entries(payouts)),
});

describe('booksViolations', () => {
  it('finds nothing in books that follow the decisions', () => {
    const books: RecentBookings = {
      ...nothing,
      credits: [{ paymentId: 'pay_1', paymentMovements: 1, feeMovements: 1 }],
      payouts: [
        { payoutId: 'po_1', reservations: 1, releases: 0, reversals: 0 },
        { payoutId: 'po_2', reservations: 1, releases: 1, reversals: 0 },
        { payoutId: 'po_3', reservations: 1, releases: 0, reversals: 1 },
      ],
    };
    expect(
      booksViolations(books, decided(['pay_1'], { po_1: 'reserving', po_2: 'paid', po_3: 'failed' })),
    ).toEqual([]);
  });

  it('reports a credit of a payment that did not succeed, and one credited twice', () => {
    const books: RecentBookings = {
      ...nothing,
      credits: [
        { paymentId: 'pay_1', paymentMovements: 1, feeMovements: 1 },
        { paymentId: 'pay_2', paymentMovements: 2, feeMovements: 2 },
      ],
    };
    expect(
      booksViolations(books, decided(['pay_2'])).map(({ subject, detail }) => [subject, detail]),
    ).toEqual([
      ['pay_1/not succeeded', 'pay_1 has payment movements but did not succeed'],
      ['pay_2', 'pay_2 credited with 2 payment and 2 fee movements'],
    ]);
  });

  it('reports payouts booked against what payouts decided, or booked twice', () => {
    const books: RecentBookings = {
      ...nothing,
      payouts: [
        { payoutId: 'po_refused', reservations: 1, releases: 0, reversals: 0 },
        { payoutId: 'po_unknown', reservations: 1, releases: 0, reversals: 0 },
        { payoutId: 'po_released', reservations: 1, releases: 1, reversals: 0 },
        { payoutId: 'po_reversed', reservations: 1, releases: 0, reversals: 1 },
        { payoutId: 'po_both', reservations: 1, releases: 1, reversals: 1 },
      ],
    };
    const statuses = { po_refused: 'refused', po_released: 'failed', po_reversed: 'paid', po_both: 'paid' };
    expect(booksViolations(books, decided([], statuses)).map(({ detail }) => detail)).toEqual([
      'po_refused is reserved but payouts has it refused',
      'po_unknown is reserved but payouts has it unknown',
      'po_released was released as paid but payouts has it failed',
      'po_reversed was reversed but payouts has it paid',
      'po_both: 1 reservations, 1 releases, 1 reversals',
    ]);
  });

  it('reports unbalanced transactions, wrong balances and a negative refunds payable', () => {
    const books: RecentBookings = {
      ...nothing,
      unbalanced: ['42'],
      wrongBalances: [
        { merchantId: 'mer_1', livemode: false, kind: 'available', balance: -5n, postingsTotal: -5n },
      ],
      negativeRefundsPayable: [{ livemode: true, balance: -1n }],
    };
    expect(booksViolations(books, decided()).map(({ invariant, detail }) => [invariant, detail])).toEqual([
      ['double entry', 'ledger transaction 42 does not balance'],
      ['balance', 'mer_1 (test): available is -5, its postings sum to -5'],
      ['money paid by mistake goes back', 'refunds payable is -1 in live mode'],
    ]);
  });
});
