import { ledgerV1 } from '@sika/contracts';
import { newId } from '@sika/platform';
import { queryOne, startLedger, testScope, type LedgerHarness } from './support';

const { BalanceTransactionType: Type } = ledgerV1;

describe('ledger: adjustments', () => {
  let ledger: LedgerHarness;

  beforeAll(async () => {
    ledger = await startLedger();
  });

  afterAll(async () => {
    await ledger.close();
  });

  type Scope = ReturnType<typeof testScope>;
  const fund = (scope: Scope, amount: bigint) => ledger.credit(scope, amount, 0n);
  const balanceOf = async (scope: Scope) => (await ledger.client.getBalance({ scope })).balance;
  const adjust = (scope: Scope, amount: bigint, overrides: Partial<ledgerV1.PostAdjustmentRequest> = {}) =>
    ledger.client.postAdjustment({
      scope,
      amount,
      reason: 'Fee charged twice on pay_123',
      idempotencyKey: newId('req'),
      requestedBy: 'awa',
      ...overrides,
    });
  const writtenFor = async (merchantId: string) =>
    queryOne<{ adjustments: string; transactions: string; movements: string }>(
      ledger.db,
      `SELECT (SELECT count(*) FROM adjustments WHERE merchant_id = $1) AS adjustments,
              (SELECT count(*) FROM ledger_transactions t WHERE t.kind = 'adjustment'
                  AND t.source_id IN (SELECT id FROM adjustments WHERE merchant_id = $1)) AS transactions,
              (SELECT count(*) FROM balance_transactions WHERE merchant_id = $1 AND type = 'adjustment') AS movements`,
      [merchantId],
    );

  it('posts an adjustment movement, its source its own adj_ id, recorded with who, why, when and the key', async () => {
    const scope = testScope();
    await fund(scope, 1_000n);
    const answer = await adjust(scope, 250n, { idempotencyKey: 'ticket-4521', reason: '  Goodwill  ' });

    expect(answer.created).toBe(true);
    const { adjustment, balanceTransaction } = answer;
    expect(adjustment).toEqual({
      id: expect.stringMatching(/^adj_[A-Za-z0-9]{24}$/),
      merchantId: scope.merchantId,
      livemode: false,
      amount: 250n,
      reason: 'Goodwill',
      requestedBy: 'awa',
      idempotencyKey: 'ticket-4521',
      createdAt: ledger.clock.now(),
    });
    expect(balanceTransaction).toMatchObject({
      type: Type.BALANCE_TRANSACTION_TYPE_ADJUSTMENT,
      amount: 250n,
      sourceId: adjustment?.id,
      currency: 'XOF',
      livemode: false,
    });
    expect(await balanceOf(scope)).toMatchObject({ available: 1_250n, pendingPayout: 0n });
    const listed = await ledger.client.listBalanceTransactions({
      scope,
      page: undefined,
      type: Type.BALANCE_TRANSACTION_TYPE_ADJUSTMENT,
    });
    expect(listed.balanceTransactions).toEqual([balanceTransaction]);
    const row = await queryOne(ledger.db, 'SELECT * FROM adjustments WHERE id = $1', [adjustment?.id]);
    expect(row).toMatchObject({
      merchant_id: scope.merchantId,
      amount: '250',
      reason: 'Goodwill',
      requested_by: 'awa',
      idempotency_key: 'ticket-4521',
    });
  });

  it('posts an adjustment once per key, even when the same request arrives ten times at once', async () => {
    const scope = testScope();
    const request = { idempotencyKey: newId('req') };
    const answers = await Promise.all(Array.from({ length: 10 }, () => adjust(scope, 400n, request)));

    expect(answers.filter((answer) => answer.created)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.balanceTransaction?.id)).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.adjustment?.id)).size).toBe(1);
    expect(await writtenFor(scope.merchantId)).toEqual({
      adjustments: '1',
      transactions: '1',
      movements: '1',
    });
    expect(await balanceOf(scope)).toMatchObject({ available: 400n });

    // Another operator repeating it is the same adjustment; the key used for anything else is refused.
    await expect(adjust(scope, 400n, { ...request, requestedBy: 'kofi' })).resolves.toMatchObject({
      created: false,
      adjustment: { requestedBy: 'awa' },
    });
    for (const [otherScope, amount, reason] of [
      [scope, 401n, undefined],
      [scope, 400n, 'Another reason'],
      [testScope(), 400n, undefined],
      [{ ...scope, livemode: true }, 400n, undefined],
    ] as const) {
      await expect(
        adjust(otherScope, amount, { ...request, ...(reason !== undefined && { reason }) }),
      ).rejects.toMatchObject({ code: 'idempotency_key_reused', param: 'idempotency_key' });
    }
    expect(await writtenFor(scope.merchantId)).toEqual({
      adjustments: '1',
      transactions: '1',
      movements: '1',
    });
  });

  it('takes money back with a negative adjustment, and refuses one that would make available negative', async () => {
    const scope = testScope();
    await fund(scope, 1_000n);
    await expect(adjust(scope, -300n)).resolves.toMatchObject({ balanceTransaction: { amount: -300n } });

    const key = newId('req');
    await expect(adjust(scope, -701n, { idempotencyKey: key })).rejects.toMatchObject({
      code: 'balance_insufficient',
      param: 'amount',
      message:
        'The adjustment (-701) would make the available balance (700) negative: at most 700 can be taken from it.',
    });
    expect(await writtenFor(scope.merchantId)).toEqual({
      adjustments: '1',
      transactions: '1',
      movements: '1',
    });
    expect(await balanceOf(scope)).toMatchObject({ available: 700n });
    // A refusal leaves nothing behind, its key included.
    await fund(scope, 1n);
    await expect(adjust(scope, -701n, { idempotencyKey: key })).resolves.toMatchObject({ created: true });
    expect(await balanceOf(scope)).toMatchObject({ available: 0n });
  });

  it('never lets negative adjustments and payouts racing on one balance make it negative', async () => {
    const scope = testScope();
    await fund(scope, 1_000n);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, index) =>
        index % 2 === 0
          ? adjust(scope, -300n)
          : ledger.client.reservePayout({ scope, payoutId: newId('po'), amount: 300n }),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'balance_insufficient' });
    }
    expect((await balanceOf(scope))?.available).toBe(100n);
  });

  it.each([
    ['an amount of 0', 'amount', 0n, {}],
    ['an empty reason', 'reason', 5n, { reason: ' ' }],
    ['an empty key', 'idempotency_key', 5n, { idempotencyKey: '' }],
    ['no operator', 'requested_by', 5n, { requestedBy: '' }],
    ['no merchant', 'scope.merchant_id', 5n, { scope: { merchantId: 'nope', livemode: false } }],
  ])('refuses %s, naming %s and writing nothing', async (_case, param, amount, overrides) => {
    const scope = testScope();
    await expect(adjust(scope, amount, overrides)).rejects.toMatchObject({
      code: 'parameter_invalid',
      param,
    });
    expect(await writtenFor(scope.merchantId)).toEqual({
      adjustments: '0',
      transactions: '0',
      movements: '0',
    });
  });

  it('is accounted for by the audit: counted, summed, and each record matched with its books', async () => {
    const livemode = true;
    const scope = testScope(livemode);
    const before = await ledger.client.auditBooks({ livemode });
    await fund(scope, 1_000n);
    await adjust(scope, 200n);
    await adjust(scope, -50n);

    const audit = await ledger.client.auditBooks({ livemode });
    expect(audit).toMatchObject({
      adjustmentCount: before.adjustmentCount + 2,
      adjustmentTotal: before.adjustmentTotal + 150n,
      unmatchedAdjustments: [],
      balanceMismatches: [],
      unbalancedTransactions: [],
    });
    expect(audit.merchantsOutOfBalance).not.toContain(scope.merchantId);
    const { balance } = await queryOne<{ balance: string }>(
      ledger.db,
      "SELECT balance::text FROM accounts WHERE owner_id = 'sika' AND livemode AND kind = 'adjustments'",
    );
    expect(BigInt(balance)).toBe(-audit.adjustmentTotal);

    // A record without its books (written by hand, as only the database's owner could) is named.
    const orphan = newId('adj');
    await ledger.db.query(
      `INSERT INTO adjustments (id, merchant_id, livemode, amount, reason, requested_by, idempotency_key, created_at)
       VALUES ($1, $2, true, 10, 'by hand', 'test', $3, now())`,
      [orphan, scope.merchantId, newId('req')],
    );
    expect((await ledger.client.auditBooks({ livemode })).unmatchedAdjustments).toEqual([orphan]);
  });
});
