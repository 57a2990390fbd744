import { payoutsV1 } from '@sika/contracts';
import { newId } from '@sika/platform';
import { settleRetryingOverload, waitFor } from '@sika/testing';
import { Harness } from './support';

// A real ledger process (tsx compiles at start) on 2 shared cores: generous bounds, though a run takes seconds.
jest.setTimeout(60_000);

const { PayoutStatus: Status, PayoutMethod: Method, AliasType } = payoutsV1;

describe('payouts over gRPC, with the real ledger', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await Harness.start('api');
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('pays out part of the balance: reserved at once, paid when the transfer completes', async () => {
    const scope = harness.newScope();
    await harness.fund(scope, 10_000n);
    const payout = await harness.createPayout(scope, { amount: 4_000n });

    expect(payout).toMatchObject({
      id: expect.stringMatching(/^po_[A-Za-z0-9]{24}$/),
      merchantId: scope.merchantId,
      livemode: false,
      amount: 4_000n,
      currency: 'XOF',
      status: Status.PAYOUT_STATUS_PENDING,
      method: Method.PAYOUT_METHOD_MANUAL,
      destination: {
        aliasType: AliasType.ALIAS_TYPE_PHONE,
        aliasMasked: expect.not.stringContaining('0000000100'),
        holderName: 'Marchand Test Sika',
      },
      createdAt: harness.clock.now(),
    });
    expect(payout.paidAt).toBeUndefined();
    expect(await harness.balance(scope)).toMatchObject({ available: 6_000n, pendingPayout: 4_000n });
    expect(await harness.tap.transferOf(payout.id)).toMatchObject({
      livemode: false,
      payeeAlias: '+2250000000100',
      amount: 4_000n,
      reason: `Sika payout ${payout.id}`,
    });

    harness.publishTransferOutcome(payout, { paid: true });
    const event = await harness.tap.eventOf(payout.id, 'payout.paid');
    expect(event.payout).toMatchObject({ status: Status.PAYOUT_STATUS_PAID, paidAt: harness.clock.now() });
    expect(await harness.getPayout(scope, payout.id)).toMatchObject({ status: Status.PAYOUT_STATUS_PAID });
    await waitFor(async () => (await harness.balance(scope)).pendingPayout === 0n);
    expect(await harness.balance(scope)).toMatchObject({ available: 6_000n, pendingPayout: 0n });
    // Payouts by final status and mode: the payout.paid events published, on the operations port.
    const paid =
      'sika_events_published_total{routing_key="payouts.payout.paid",mode="test",service="payouts"}';
    const scrape = async () =>
      (await fetch(`http://127.0.0.1:${harness.replicas[0]!.probes.port}/metrics`)).text();
    await waitFor(async () => (await scrape()).includes(`${paid} `), { description: 'payout.paid counted' });
  });

  it('pays out the whole available balance when no amount is given, and refuses an empty one', async () => {
    const scope = harness.newScope();
    await expect(harness.createPayout(scope)).rejects.toMatchObject({ code: 'balance_insufficient' });
    await harness.fund(scope, 2_500n);
    await expect(harness.createPayout(scope, { amount: 2_501n })).rejects.toMatchObject({
      code: 'balance_insufficient',
      param: 'amount',
    });
    const payout = await harness.createPayout(scope);
    expect(payout.amount).toBe(2_500n);
    expect(await harness.balance(scope)).toMatchObject({ available: 0n, pendingPayout: 2_500n });
    const { payouts } = await harness.list({ scope });
    expect(payouts.map((listed) => listed.id)).toEqual([payout.id]);
  });

  it('fails a payout whose transfer is rejected: failure_code, payout_reversal, payout.failed', async () => {
    const scope = harness.newScope();
    await harness.fund(scope, 1_000n);
    const payout = await harness.createPayout(scope, { amount: 700n });
    harness.publishTransferOutcome(payout, { paid: false, reasonCode: 'AC06' });
    const event = await harness.tap.eventOf(payout.id, 'payout.failed');
    expect(event.payout).toMatchObject({
      status: Status.PAYOUT_STATUS_FAILED,
      failureCode: 'account_frozen',
    });
    expect(event.payout?.paidAt).toBeUndefined();
    // The ledger applies the committed failure from its queue, after payouts announced it.
    await waitFor(async () => (await harness.balance(scope)).pendingPayout === 0n);
    expect(await harness.balance(scope)).toMatchObject({ available: 1_000n, pendingPayout: 0n });
    const { balanceTransactions } = await harness.ledger.listBalanceTransactions({
      scope,
      page: { limit: 10 },
      type: 0,
    });
    expect(
      balanceTransactions.filter((movement) => movement.sourceId === payout.id).map((m) => m.amount),
    ).toEqual([700n, -700n]);
  });

  it('settles once however often the outcome arrives, and ignores a contradicting late one', async () => {
    const scope = harness.newScope();
    await harness.fund(scope, 1_000n);
    const payout = await harness.createPayout(scope, { amount: 100n });
    harness.publishTransferOutcome(payout, { paid: true });
    harness.publishTransferOutcome(payout, { paid: true });
    // Late means after the payout settled: published together, the consumer may take them in any order.
    await harness.tap.eventOf(payout.id, 'payout.paid');
    harness.publishTransferOutcome(payout, { paid: false, reasonCode: 'AB08' });
    await waitFor(async () => (await harness.balance(scope)).pendingPayout === 0n);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(harness.tap.events.filter(({ event }) => event.payout?.id === payout.id)).toHaveLength(1);
    expect(await harness.balance(scope)).toMatchObject({ available: 900n, pendingPayout: 0n });
  });

  describe('idempotency', () => {
    it('answers a replay with the same payout and refuses the key for another body', async () => {
      const scope = harness.newScope();
      await harness.fund(scope, 1_000n);
      const first = await harness.createPayout(scope, { key: 'po-key-1', amount: 300n });
      const again = await harness.createPayout(scope, { key: 'po-key-1', amount: 300n });
      expect(again.id).toBe(first.id);
      await expect(harness.createPayout(scope, { key: 'po-key-1', amount: 301n })).rejects.toMatchObject({
        code: 'idempotency_key_reused',
      });
      expect(await harness.balance(scope)).toMatchObject({ available: 700n, pendingPayout: 300n });
    });

    it('makes one payout of concurrent requests with one key', async () => {
      const scope = harness.newScope();
      await harness.fund(scope, 1_000n);
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, () => harness.createPayout(scope, { key: 'po-key-2', amount: 100n })),
      );
      const ids = new Set(
        results.flatMap((result) => (result.status === 'fulfilled' ? [result.value.id] : [])),
      );
      expect(ids.size).toBe(1);
      for (const result of results) {
        if (result.status === 'rejected')
          expect(result.reason).toMatchObject({ code: 'idempotency_key_in_use' });
      }
      expect(await harness.balance(scope)).toMatchObject({ available: 900n, pendingPayout: 100n });
    });

    it('frees the key of a refused payout, so it can be sent again once the balance allows', async () => {
      const scope = harness.newScope();
      await expect(harness.createPayout(scope, { key: 'po-key-3', amount: 50n })).rejects.toMatchObject({
        code: 'balance_insufficient',
      });
      await harness.fund(scope, 50n);
      expect((await harness.createPayout(scope, { key: 'po-key-3', amount: 50n })).amount).toBe(50n);
    });
  });

  it('never makes a balance negative under twenty concurrent payouts', async () => {
    const scope = harness.newScope();
    await harness.fund(scope, 10_000n);
    const keys = Array.from({ length: 20 }, () => newId('req'));
    const results = await settleRetryingOverload(
      keys.map((key) => () => harness.createPayout(scope, { key, amount: 1_500n })),
    );
    const made = results.filter((result) => result.status === 'fulfilled');
    expect(made).toHaveLength(6);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'balance_insufficient' });
    }
    expect(await harness.balance(scope)).toMatchObject({ available: 1_000n, pendingPayout: 9_000n });
    const { payouts } = await harness.list({ scope, page: { limit: 100 } });
    expect(payouts).toHaveLength(6);
  });

  it('refuses a live payout without a verified payout account, before looking at the balance', async () => {
    const scope = harness.newScope(true);
    await expect(harness.createPayout(scope)).rejects.toMatchObject({ code: 'payout_account_missing' });
    await harness.fund(scope, 1_000n);
    await expect(harness.createPayout(scope, { amount: 10n })).rejects.toMatchObject({
      code: 'payout_account_missing',
    });
    expect(await harness.balance(scope)).toMatchObject({ available: 1_000n, pendingPayout: 0n });
  });

  it('pays a new live payout account nothing for 24 h after its confirmation', async () => {
    const scope = harness.newScope(true);
    await harness.fund(scope, 1_000n);
    // A live registration asks the participant bank, absent here: the account as its confirmation leaves it.
    await harness.db.query(
      `INSERT INTO payout_accounts (merchant_id, livemode, status, alias_type, alias, alias_masked, holder_name,
         updated_at, verified_at)
       VALUES ($1, true, 'verified', 'phone', '+2250700000009', '+225 07******09', 'Awa Traoré', $2, $2)`,
      [scope.merchantId, harness.clock.now()],
    );
    harness.clock.advance(24 * 3_600_000 - 60_000);
    await expect(harness.createPayout(scope, { amount: 10n })).rejects.toMatchObject({
      code: 'payout_account_cooling_down',
    });
    expect(await harness.balance(scope)).toMatchObject({ available: 1_000n, pendingPayout: 0n });

    harness.clock.advance(60_000);
    await expect(harness.createPayout(scope, { amount: 10n })).resolves.toMatchObject({ amount: 10n });
  });

  it('lists most recent first with filters and pages, inside one merchant and mode', async () => {
    const scope = harness.newScope();
    await harness.fund(scope, 1_000n);
    const created: payoutsV1.Payout[] = [];
    for (let index = 0; index < 5; index += 1) {
      created.push(await harness.createPayout(scope, { amount: 10n }));
      harness.clock.advance(1_000);
    }
    harness.publishTransferOutcome(created[1]!, { paid: true });
    await harness.tap.eventOf(created[1]!.id, 'payout.paid');
    const newestFirst = [...created].reverse().map((payout) => payout.id);

    const page1 = await harness.list({ scope, page: { limit: 2 } });
    expect(page1.payouts.map((payout) => payout.id)).toEqual(newestFirst.slice(0, 2));
    expect(page1.hasMore).toBe(true);
    const page2 = await harness.list({
      scope,
      page: { limit: 2, startingAfter: newestFirst[1] },
    });
    expect(page2.payouts.map((payout) => payout.id)).toEqual(newestFirst.slice(2, 4));

    const paid = await harness.list({ scope, status: Status.PAYOUT_STATUS_PAID });
    expect(paid.payouts.map((payout) => payout.id)).toEqual([created[1]!.id]);
    const window = await harness.list({
      scope,
      createdFrom: created[1]!.createdAt,
      createdTo: created[3]!.createdAt,
    });
    expect(window.payouts.map((payout) => payout.id)).toEqual([created[2]!.id, created[1]!.id]);

    const other = harness.newScope();
    const live = { ...scope, livemode: true };
    for (const stranger of [other, live]) {
      await expect(harness.getPayout(stranger, created[0]!.id)).rejects.toMatchObject({
        code: 'resource_missing',
      });
      expect((await harness.list({ scope: stranger })).payouts).toEqual([]);
      await expect(
        harness.list({
          scope: stranger,
          page: { limit: 2, startingAfter: created[0]!.id },
        }),
      ).rejects.toMatchObject({ code: 'resource_missing', param: 'starting_after' });
    }
  });

  it('finishes a reservation its request left behind', async () => {
    const scope = harness.newScope();
    await harness.fund(scope, 800n);
    const id = newId('po');
    await harness.db.query(
      `INSERT INTO payouts (id, merchant_id, livemode, status, method, currency, alias_type, alias, alias_masked,
         holder_name, reserve_lease_until, created_at)
       VALUES ($1, $2, false, 'reserving', 'manual', 'XOF', 'phone', '+2250000000100', '+225 00******00',
         'Marchand Test Sika', $3, $3)`,
      [id, scope.merchantId, harness.clock.now()],
    );
    harness.clock.advance(1);
    harness.replicas[0]!.sweeper.wake();
    await waitFor(async () => (await harness.getPayout(scope, id).catch(() => undefined))?.amount === 800n);
    expect(await harness.balance(scope)).toMatchObject({ available: 0n, pendingPayout: 800n });
    await harness.tap.transferOf(id);
  });
});
