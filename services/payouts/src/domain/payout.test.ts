import { payoutDayAt } from './daily-run';
import { destinationFor, payoutAccountOf, type PayoutAccount } from './payout-account';
import { settle, type Payout } from './payout';

const testAccount = {
  aliasType: 'phone' as const,
  alias: '+2250000000100',
  aliasMasked: '+225 00******00',
  holderName: 'Marchand Test Sika',
};

const payout = (overrides: Partial<Payout> = {}): Payout => ({
  id: 'po_1',
  merchantId: 'mer_1',
  livemode: false,
  status: 'pending',
  method: 'manual',
  requestedAmount: null,
  amount: 500n,
  currency: 'XOF',
  destination: testAccount,
  failureCode: null,
  reasonCode: null,
  automaticFor: null,
  createdAt: new Date('2026-11-25T08:00:00Z'),
  paidAt: null,
  failedAt: null,
  ...overrides,
});

describe('the daily run', () => {
  it.each([
    ['2026-11-25T06:00:00.000Z', '2026-11-25'],
    ['2026-11-25T23:59:59.999Z', '2026-11-25'],
    ['2026-11-25T05:59:59.999Z', '2026-11-24'],
    ['2027-01-01T00:00:00.000Z', '2026-12-31'],
  ])('at %s is the run of %s', (now, day) => {
    expect(payoutDayAt(new Date(now))).toBe(day);
  });
});

describe('settling a payout', () => {
  const now = new Date('2026-11-25T08:00:05Z');

  it('marks a pending payout paid with paid_at', () => {
    expect(settle(payout(), { result: 'paid' }, now)).toMatchObject({ status: 'paid', paidAt: now });
  });

  it('marks it failed with the failure code of the scheme reason', () => {
    expect(settle(payout(), { result: 'failed', reasonCode: 'AC06' }, now)).toMatchObject({
      status: 'failed',
      failureCode: 'account_frozen',
      reasonCode: 'AC06',
      failedAt: now,
      paidAt: null,
    });
  });

  it('does nothing to a payout that is not pending', () => {
    expect(settle(payout({ status: 'paid' }), { result: 'failed', reasonCode: 'AC06' }, now)).toBeUndefined();
    expect(settle(payout({ status: 'reserving', amount: null }), { result: 'paid' }, now)).toBeUndefined();
  });
});

describe('payout accounts', () => {
  const NOW = new Date('2026-11-29T12:00:00Z');
  const registered = (
    status: PayoutAccount['status'],
    livemode: boolean,
    verifiedAt: Date | null = status === 'verified' ? new Date('2026-11-01T00:00:00Z') : null,
  ): PayoutAccount => ({
    merchantId: 'mer_1',
    livemode,
    status,
    aliasType: 'merchant_code',
    alias: 'BOUTIQUE42',
    aliasMasked: 'BO******42',
    holderName: 'Boutique 42',
    holderCountry: 'SN',
    updatedAt: new Date(),
    verifiedAt,
    defaultTestAccount: false,
  });

  it('pays a new live account only 24 h after its confirmation; a test one at once', () => {
    const justConfirmed = new Date(NOW.getTime() - 24 * 3_600_000 + 1);
    expect(() => destinationFor(true, registered('verified', true, justConfirmed), testAccount, NOW)).toThrow(
      expect.objectContaining({ code: 'payout_account_cooling_down' }),
    );
    const dayOld = new Date(NOW.getTime() - 24 * 3_600_000);
    expect(destinationFor(true, registered('verified', true, dayOld), testAccount, NOW).alias).toBe(
      'BOUTIQUE42',
    );
    expect(destinationFor(false, registered('verified', false, NOW), testAccount, NOW).alias).toBe(
      'BOUTIQUE42',
    );
  });

  it('pays a verified account, in either mode', () => {
    expect(destinationFor(true, registered('verified', true), testAccount, NOW).alias).toBe('BOUTIQUE42');
    expect(destinationFor(false, registered('verified', false), testAccount, NOW).alias).toBe('BOUTIQUE42');
  });

  it('refuses live payouts without a verified account', () => {
    for (const account of [undefined, registered('awaiting_confirmation', true)]) {
      expect(() => destinationFor(true, account, testAccount, NOW)).toThrow(
        expect.objectContaining({ code: 'payout_account_missing' }),
      );
    }
  });

  it('pays the default test account in test mode until another is verified', () => {
    expect(destinationFor(false, undefined, testAccount, NOW).alias).toBe(testAccount.alias);
    expect(destinationFor(false, registered('awaiting_confirmation', false), testAccount, NOW).alias).toBe(
      testAccount.alias,
    );
    expect(payoutAccountOf('mer_1', false, undefined, testAccount)).toMatchObject({
      defaultTestAccount: true,
    });
    expect(payoutAccountOf('mer_1', true, undefined, testAccount)).toBeUndefined();
  });
});
