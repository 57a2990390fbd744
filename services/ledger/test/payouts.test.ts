import { ledgerV1 } from '@sika/contracts';
import { newId } from '@sika/platform';
import { queryOne, startLedger, testScope, type LedgerHarness } from './support';

const { BalanceTransactionType: Type, PayoutOutcome: Outcome } = ledgerV1;

describe('ledger: payout reservations and releases', () => {
  let ledger: LedgerHarness;

  beforeAll(async () => {
    ledger = await startLedger();
  });

  afterAll(async () => {
    await ledger.close();
  });

  type Scope = ReturnType<typeof testScope>;
  const fund = (scope: Scope, amount: bigint) =>
    ledger.client.postPaymentCredit({ scope, paymentId: newId('pay'), amount, feeAmount: 0n });
  const balanceOf = async (scope: Scope) => (await ledger.client.getBalance({ scope })).balance;
  const reserve = (scope: Scope, payoutId: string, amount?: bigint) =>
    ledger.client.reservePayout({ scope, payoutId, ...(amount !== undefined && { amount }) });
  const release = (scope: Scope, payoutId: string, outcome: ledgerV1.PayoutOutcome) =>
    ledger.client.releasePayout({ scope, payoutId, outcome });

  it('moves a payout from available to pending_payout with one negative payout movement', async () => {
    const scope = testScope();
    await fund(scope, 10_000n);
    const payoutId = newId('po');
    const { balanceTransaction } = await reserve(scope, payoutId, 4_000n);

    expect(balanceTransaction).toMatchObject({
      type: Type.BALANCE_TRANSACTION_TYPE_PAYOUT,
      amount: -4_000n,
      sourceId: payoutId,
      currency: 'XOF',
      livemode: false,
    });
    expect(await balanceOf(scope)).toMatchObject({ available: 6_000n, pendingPayout: 4_000n });
  });

  it('reserves the whole available balance when no amount is given', async () => {
    const scope = testScope();
    await fund(scope, 2_500n);
    const { balanceTransaction } = await reserve(scope, newId('po'));
    expect(balanceTransaction?.amount).toBe(-2_500n);
    expect(await balanceOf(scope)).toMatchObject({ available: 0n, pendingPayout: 2_500n });
  });

  it('refuses more than available, and an empty balance, writing nothing', async () => {
    const scope = testScope();
    await expect(reserve(scope, newId('po'))).rejects.toMatchObject({ code: 'balance_insufficient' });
    await fund(scope, 100n);
    const payoutId = newId('po');
    await expect(reserve(scope, payoutId, 101n)).rejects.toMatchObject({
      code: 'balance_insufficient',
      param: 'amount',
    });
    const { count } = await queryOne<{ count: string }>(
      ledger.db,
      'SELECT count(*) FROM ledger_transactions WHERE source_id = $1',
      [payoutId],
    );
    expect(count).toBe('0');
    expect(await balanceOf(scope)).toMatchObject({ available: 100n, pendingPayout: 0n });
  });

  it('answers a repeated reservation with the first movement, and refuses another amount or merchant', async () => {
    const scope = testScope();
    await fund(scope, 1_000n);
    const payoutId = newId('po');
    const first = await reserve(scope, payoutId, 300n);
    const again = await reserve(scope, payoutId, 300n);
    expect(again.balanceTransaction?.id).toBe(first.balanceTransaction?.id);
    await expect(reserve(scope, payoutId, 301n)).rejects.toMatchObject({ code: 'idempotency_key_reused' });
    await expect(reserve(testScope(), payoutId, 300n)).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
    expect(await balanceOf(scope)).toMatchObject({ available: 700n, pendingPayout: 300n });
  });

  it('never lets twenty concurrent payouts on one balance make it negative', async () => {
    const scope = testScope();
    await fund(scope, 10_000n);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => reserve(scope, newId('po'), 1_500n)),
    );
    const reserved = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result) => result.status === 'rejected');
    expect(reserved).toHaveLength(6);
    for (const result of refused) expect(result.reason).toMatchObject({ code: 'balance_insufficient' });
    expect(await balanceOf(scope)).toMatchObject({ available: 1_000n, pendingPayout: 9_000n });
  });

  it('never reserves twice when whole-balance payouts race', async () => {
    const scope = testScope();
    await fund(scope, 5_000n);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => reserve(scope, newId('po'))));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(await balanceOf(scope)).toMatchObject({ available: 0n, pendingPayout: 5_000n });
  });

  it('releases a paid payout once: pending_payout drops, available is untouched, no movement', async () => {
    const scope = testScope();
    await fund(scope, 1_000n);
    const payoutId = newId('po');
    await reserve(scope, payoutId, 600n);
    expect(await release(scope, payoutId, Outcome.PAYOUT_OUTCOME_PAID)).toEqual({});
    expect(await release(scope, payoutId, Outcome.PAYOUT_OUTCOME_PAID)).toEqual({});
    expect(await balanceOf(scope)).toMatchObject({ available: 400n, pendingPayout: 0n });
    const rows = await ledger.db.query('SELECT type FROM balance_transactions WHERE source_id = $1', [
      payoutId,
    ]);
    expect(rows).toEqual([{ type: 'payout' }]);
    await expect(release(scope, payoutId, Outcome.PAYOUT_OUTCOME_FAILED)).rejects.toMatchObject({
      code: 'internal_error',
    });
  });

  it('reverses a failed payout once: the amount returns to available with one payout_reversal', async () => {
    const scope = testScope();
    await fund(scope, 1_000n);
    const payoutId = newId('po');
    await reserve(scope, payoutId, 600n);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => release(scope, payoutId, Outcome.PAYOUT_OUTCOME_FAILED)),
    );
    expect(new Set(answers.map((answer) => answer.balanceTransaction?.id)).size).toBe(1);
    expect(answers[0]?.balanceTransaction).toMatchObject({
      type: Type.BALANCE_TRANSACTION_TYPE_PAYOUT_REVERSAL,
      amount: 600n,
      sourceId: payoutId,
    });
    expect(await balanceOf(scope)).toMatchObject({ available: 1_000n, pendingPayout: 0n });
  });

  it('refuses to release a payout it never reserved, or in another scope', async () => {
    const scope = testScope();
    await fund(scope, 1_000n);
    const payoutId = newId('po');
    await expect(release(scope, payoutId, Outcome.PAYOUT_OUTCOME_PAID)).rejects.toMatchObject({
      code: 'resource_missing',
    });
    await reserve(scope, payoutId, 10n);
    await expect(
      release({ ...scope, livemode: true }, payoutId, Outcome.PAYOUT_OUTCOME_PAID),
    ).rejects.toMatchObject({ code: 'resource_missing' });
    await expect(release(scope, payoutId, Outcome.PAYOUT_OUTCOME_UNSPECIFIED)).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'outcome',
    });
    await expect(reserve(scope, 'pay_notapayout')).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'payout_id',
    });
  });

  it('lists merchants with an available balance, in pages', async () => {
    const livemode = true;
    const scopes = [testScope(livemode), testScope(livemode), testScope(livemode)];
    await fund(scopes[0]!, 10n);
    await fund(scopes[1]!, 20n);
    await fund(scopes[2]!, 30n);
    await reserve(scopes[2]!, newId('po'));
    const ids = new Set(scopes.map((scope) => scope.merchantId));
    const seen: { merchantId: string; available: bigint }[] = [];
    let startingAfter: string | undefined;
    for (;;) {
      const page = await ledger.client.listPayableBalances({
        livemode,
        limit: 1,
        ...(startingAfter !== undefined && { startingAfter }),
      });
      seen.push(...page.balances);
      if (!page.hasMore) break;
      startingAfter = page.balances.at(-1)?.merchantId;
    }
    const ours = seen.filter((balance) => ids.has(balance.merchantId));
    expect(ours.map((balance) => balance.available).sort()).toEqual([10n, 20n]);
    expect(seen.map((balance) => balance.merchantId)).toEqual([...seen.map((b) => b.merchantId)].sort());
  });

  it("shows each payout's reservation, release and reversal, and every pending_payout, to the audit", async () => {
    const scope = testScope();
    await fund(scope, 1_000n);
    const [paid, failed, pending] = [newId('po'), newId('po'), newId('po')];
    await reserve(scope, paid, 100n);
    await reserve(scope, failed, 200n);
    await reserve(scope, pending, 300n);
    await release(scope, paid, Outcome.PAYOUT_OUTCOME_PAID);
    await release(scope, failed, Outcome.PAYOUT_OUTCOME_FAILED);
    const audit = await ledger.client.auditBooks({ livemode: false });
    const byId = new Map(audit.payouts.map((payout) => [payout.payoutId, payout]));
    expect(byId.get(paid)).toMatchObject({ reservations: 1, releases: 1, reversals: 0 });
    expect(byId.get(failed)).toMatchObject({ reservations: 1, releases: 0, reversals: 1 });
    expect(byId.get(pending)).toMatchObject({ reservations: 1, releases: 0, reversals: 0 });
    expect(audit.pendingPayouts).toContainEqual({ merchantId: scope.merchantId, pendingPayout: 300n });
    expect(audit.merchantsOutOfBalance).not.toContain(scope.merchantId);
    expect(audit.unbalancedTransactions).toEqual([]);
    expect(audit.balanceMismatches).toEqual([]);
  });
});
