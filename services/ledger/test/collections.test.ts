import { newId } from '@sika/platform';
import { waitFor } from '@sika/testing';
import { startLedger, testScope, type LedgerHarness } from './support';

describe('ledger: collections per day', () => {
  let ledger: LedgerHarness;

  beforeAll(async () => {
    ledger = await startLedger();
  });

  afterAll(async () => {
    await ledger.close();
  });

  type Scope = ReturnType<typeof testScope>;
  const at = (iso: string) => new Date(iso);
  const creditAt = async (iso: string, scope: Scope, amount: bigint, feeAmount: bigint) => {
    ledger.clock.set(at(iso));
    await ledger.credit(scope, amount, feeAmount);
  };
  const summarize = async (scope: Scope, from: string, to: string) =>
    (await ledger.client.summarizeCollections({ scope, from: at(from), to: at(to) })).days;

  describe('one merchant with credits on both sides of midnight', () => {
    const scope = testScope();
    const live = { merchantId: scope.merchantId, livemode: true };

    beforeAll(async () => {
      await creditAt('2026-03-10T08:00:00.000Z', scope, 2_000n, 0n);
      await creditAt('2026-03-10T23:59:59.999Z', scope, 10_000n, 150n);
      await creditAt('2026-03-11T00:00:00.000Z', scope, 5_000n, 75n);

      // Money the customer must get back never reaches the balance, so it is not counted as collected.
      ledger.clock.set(at('2026-03-11T12:00:00.000Z'));
      const before = await ledger.refundsPayable(false);
      await ledger.publishRefundOwed(false, `E${newId('msg').slice(4)}`, 2_500n);
      await waitFor(async () => (await ledger.refundsPayable(false)) === before + 2_500n);
      const payoutId = newId('po');
      await ledger.client.reservePayout({ scope, payoutId, amount: 1_000n });
      // A day with payout movements only collected nothing.
      ledger.clock.set(at('2026-03-12T09:00:00.000Z'));
      await ledger.publishPayoutOutcome(scope, { id: payoutId, amount: 1_000n }, 'failed');
      await ledger.movementsOf(scope, payoutId, 2);
      await ledger.client.reservePayout({ scope, payoutId: newId('po'), amount: 500n });

      await creditAt('2026-03-10T10:00:00.000Z', testScope(), 7_000n, 70n);
      await creditAt('2026-03-10T10:00:00.000Z', live, 9_000n, 90n);
    });

    it('sums payments and fees per Abidjan day, ascending, only for the days with payments', async () => {
      expect(await summarize(scope, '2026-03-01T00:00:00.000Z', '2026-03-31T00:00:00.000Z')).toEqual([
        { day: '2026-03-10', collected: 12_000n, fees: 150n, paymentCount: 2n },
        { day: '2026-03-11', collected: 5_000n, fees: 75n, paymentCount: 1n },
      ]);
    });

    it("leaves out another merchant's movements and the other mode's", async () => {
      expect(await summarize(live, '2026-03-01T00:00:00.000Z', '2026-03-31T00:00:00.000Z')).toEqual([
        { day: '2026-03-10', collected: 9_000n, fees: 90n, paymentCount: 1n },
      ]);
      expect(await summarize(testScope(), '2026-03-01T00:00:00.000Z', '2026-03-31T00:00:00.000Z')).toEqual(
        [],
      );
    });

    it('counts a movement at `from` and leaves out one at `to`', async () => {
      expect(await summarize(scope, '2026-03-10T23:59:59.999Z', '2026-03-11T00:00:00.000Z')).toEqual([
        { day: '2026-03-10', collected: 10_000n, fees: 150n, paymentCount: 1n },
      ]);
      expect(await summarize(scope, '2026-03-10T08:00:00.001Z', '2026-03-11T00:00:00.001Z')).toEqual([
        { day: '2026-03-10', collected: 10_000n, fees: 150n, paymentCount: 1n },
        { day: '2026-03-11', collected: 5_000n, fees: 75n, paymentCount: 1n },
      ]);
    });
  });

  it.each([
    ['a missing from', 'from', { from: undefined, to: at('2026-03-02T00:00:00.000Z') }],
    ['a missing to', 'to', { from: at('2026-03-01T00:00:00.000Z'), to: undefined }],
    ['an empty range', 'to', { from: at('2026-03-01T00:00:00.000Z'), to: at('2026-03-01T00:00:00.000Z') }],
    ['to before from', 'to', { from: at('2026-03-02T00:00:00.000Z'), to: at('2026-03-01T00:00:00.000Z') }],
    [
      'a range longer than 92 days',
      'to',
      { from: at('2026-03-01T00:00:00.000Z'), to: at('2026-06-01T00:00:00.001Z') },
    ],
  ])('refuses %s, naming %s', async (_case, param, range) => {
    await expect(ledger.client.summarizeCollections({ scope: testScope(), ...range })).rejects.toMatchObject({
      code: 'parameter_invalid',
      param,
    });
  });

  it('accepts a range of exactly 92 days, and refuses a scope without merchant', async () => {
    const range = { from: at('2026-03-01T00:00:00.000Z'), to: at('2026-06-01T00:00:00.000Z') };
    await expect(ledger.client.summarizeCollections({ scope: testScope(), ...range })).resolves.toEqual({
      days: [],
    });
    await expect(
      ledger.client.summarizeCollections({ scope: { merchantId: '', livemode: false }, ...range }),
    ).rejects.toMatchObject({ code: 'parameter_invalid', param: 'scope.merchant_id' });
  });
});
