import { ledgerV1 } from '@sika/contracts';
import { newId } from '@sika/platform';
import { scanIndexOf } from '@sika/testing';
import { queryOne, startLedger, testScope, type LedgerHarness } from './support';

const { BalanceTransactionType: Type } = ledgerV1;

describe('ledger: books and reads', () => {
  let ledger: LedgerHarness;

  beforeAll(async () => {
    ledger = await startLedger();
  });

  afterAll(async () => {
    await ledger.close();
  });

  const credit = (scope: { merchantId: string; livemode: boolean }, amount: bigint, feeAmount: bigint) =>
    ledger.credit(scope, amount, feeAmount);

  it('credits a succeeded payment as one payment movement and one negative fee movement', async () => {
    const scope = testScope();
    const paymentId = newId('pay');
    const balanceTransactions = await ledger.credit(scope, 10_000n, 150n, paymentId);

    expect(balanceTransactions).toEqual([
      expect.objectContaining({
        type: Type.BALANCE_TRANSACTION_TYPE_PAYMENT,
        amount: 10_000n,
        sourceId: paymentId,
      }),
      expect.objectContaining({
        type: Type.BALANCE_TRANSACTION_TYPE_FEE,
        amount: -150n,
        sourceId: paymentId,
      }),
    ]);
    for (const movement of balanceTransactions) {
      expect(movement).toMatchObject({ currency: 'XOF', livemode: false, createdAt: ledger.clock.now() });
      expect(movement.id).toMatch(/^txn_[A-Za-z0-9]{24}$/);
    }
    const { balance } = await ledger.client.getBalance({ scope });
    expect(balance).toEqual({ available: 9_850n, pendingPayout: 0n, currency: 'XOF', livemode: false });
  });

  it('writes a fee movement of 0 when the fee is 0', async () => {
    const scope = testScope();
    const balanceTransactions = await credit(scope, 700n, 0n);
    expect(balanceTransactions.map((movement) => [movement.type, movement.amount])).toEqual([
      [Type.BALANCE_TRANSACTION_TYPE_PAYMENT, 700n],
      [Type.BALANCE_TRANSACTION_TYPE_FEE, 0n],
    ]);
    expect((await ledger.client.getBalance({ scope })).balance?.available).toBe(700n);
  });

  it("credits a new merchant's first payments, arriving together, each once on accounts created once", async () => {
    const scope = testScope();
    const answers = await Promise.all(Array.from({ length: 8 }, () => credit(scope, 1_000n, 10n)));

    expect(answers.every((movements) => movements.length === 2)).toBe(true);
    const { count } = await queryOne<{ count: string }>(
      ledger.db,
      'SELECT count(*) FROM accounts WHERE owner_id = $1 AND livemode = false',
      [scope.merchantId],
    );
    expect(count).toBe('1');
    expect((await ledger.client.getBalance({ scope })).balance?.available).toBe(8n * 990n);
  });

  it('keeps every ledger transaction balanced and the balance equal to the sum of the movements', async () => {
    const scope = testScope();
    await Promise.all([credit(scope, 10_000n, 150n), credit(scope, 1n, 1n), credit(scope, 333n, 0n)]);

    const unbalanced = await ledger.db.query(
      'SELECT ledger_transaction_id FROM postings GROUP BY ledger_transaction_id HAVING sum(amount) <> 0',
    );
    expect(unbalanced).toEqual([]);
    const { total } = await queryOne<{ total: string }>(
      ledger.db,
      'SELECT sum(amount) AS total FROM balance_transactions WHERE merchant_id = $1 AND livemode = $2',
      [scope.merchantId, scope.livemode],
    );
    const { balance } = await ledger.client.getBalance({ scope });
    expect(BigInt(total)).toBe(10_183n);
    expect((balance?.available ?? 0n) + (balance?.pendingPayout ?? 0n)).toBe(10_183n);
  });

  it('has its database refuse unbalanced postings and any change to the books', async () => {
    const scope = testScope();
    const paymentId = newId('pay');
    await ledger.credit(scope, 100n, 1n, paymentId);
    const { id, account_id } = await queryOne<{ id: string; account_id: string }>(
      ledger.db,
      `SELECT p.ledger_transaction_id AS id, p.account_id FROM postings p
         JOIN ledger_transactions t ON t.id = p.ledger_transaction_id WHERE t.source_id = $1 LIMIT 1`,
      [paymentId],
    );

    await expect(
      ledger.db.query('INSERT INTO postings (ledger_transaction_id, account_id, amount) VALUES ($1, $2, 5)', [
        id,
        account_id,
      ]),
    ).rejects.toThrow(/unbalanced/);
    await expect(
      ledger.db.query(
        'INSERT INTO postings (ledger_transaction_id, account_id, amount) VALUES ($1, $2, 5), ($1, $2, -5)',
        [id, account_id],
      ),
    ).resolves.toEqual([]);
    await expect(ledger.db.query('UPDATE postings SET amount = amount + 1')).rejects.toThrow(/append-only/);
    await expect(ledger.db.query('DELETE FROM balance_transactions')).rejects.toThrow(/append-only/);
    await expect(ledger.db.query('UPDATE ledger_transactions SET kind = kind')).rejects.toThrow(
      /append-only/,
    );
    await expect(ledger.db.query('TRUNCATE postings CASCADE')).rejects.toThrow(/append-only/);
    await expect(
      ledger.db.query(
        `INSERT INTO balance_transactions (id, merchant_id, livemode, type, amount, currency, source_id, ledger_transaction_id, created_at)
         VALUES ('txn_x', $1, false, 'fee', 5, 'XOF', 'pay_x', $2, now())`,
        [scope.merchantId, id],
      ),
    ).rejects.toThrow(/invalid balance transaction/);
  });

  it('reports to the audit an account whose balance is not the sum of its postings', async () => {
    const scope = testScope();
    await credit(scope, 1_000n, 10n);
    expect((await ledger.client.auditBooks({ livemode: false })).balanceMismatches).toEqual([]);
    // Only the database's owner can set aside the trigger that keeps balances: a broken book, made on purpose.
    await ledger.db.query(`
      ALTER TABLE accounts DISABLE TRIGGER accounts_balance_from_postings;
      UPDATE accounts SET balance = balance + 1 WHERE owner_id = '${scope.merchantId}';
      ALTER TABLE accounts ENABLE TRIGGER accounts_balance_from_postings;`);
    try {
      expect((await ledger.client.auditBooks({ livemode: false })).balanceMismatches).toEqual([
        { ownerId: scope.merchantId, kind: 'available', balance: 991n, postingsTotal: 990n },
      ]);
    } finally {
      await ledger.db.query(`
        ALTER TABLE accounts DISABLE TRIGGER accounts_balance_from_postings;
        UPDATE accounts SET balance = balance - 1 WHERE owner_id = '${scope.merchantId}';
        ALTER TABLE accounts ENABLE TRIGGER accounts_balance_from_postings;`);
    }
  });

  describe('isolation', () => {
    it('shows a merchant only its own movements and balance, in the mode of the request', async () => {
      const merchantA = testScope();
      const liveA = { merchantId: merchantA.merchantId, livemode: true };
      const merchantB = testScope();
      const movementsA = await credit(merchantA, 2_000n, 20n);
      await credit(liveA, 9_000n, 90n);

      expect((await ledger.client.getBalance({ scope: merchantB })).balance).toMatchObject({
        available: 0n,
        pendingPayout: 0n,
      });
      expect((await ledger.client.getBalance({ scope: merchantA })).balance?.available).toBe(1_980n);
      expect((await ledger.client.getBalance({ scope: liveA })).balance).toMatchObject({
        available: 8_910n,
        livemode: true,
      });
      const listB = await ledger.client.listBalanceTransactions({
        scope: merchantB,
        page: undefined,
        type: 0,
      });
      expect(listB).toEqual({ balanceTransactions: [], hasMore: false });
      const testList = await ledger.client.listBalanceTransactions({
        scope: merchantA,
        page: undefined,
        type: 0,
      });
      expect(testList.balanceTransactions.every((movement) => !movement.livemode)).toBe(true);
      expect(testList.balanceTransactions).toHaveLength(2);

      // Another merchant's (or mode's) movement id is answered exactly like an id that does not exist.
      for (const scope of [merchantB, liveA]) {
        await expect(
          ledger.client.listBalanceTransactions({
            scope,
            page: { limit: 10, startingAfter: movementsA[0]?.id },
            type: 0,
          }),
        ).rejects.toMatchObject({ code: 'resource_missing', param: 'starting_after' });
      }
      await expect(
        ledger.client.listBalanceTransactions({
          scope: merchantA,
          page: { limit: 10, startingAfter: newId('txn') },
          type: 0,
        }),
      ).rejects.toMatchObject({ code: 'resource_missing', param: 'starting_after' });
    });
  });

  describe('listing movements', () => {
    const scope = testScope();
    const minutes = (count: number) => count * 60_000;
    let start: Date;
    let paymentIds: string[];

    beforeAll(async () => {
      start = ledger.clock.now();
      paymentIds = [];
      for (let index = 0; index < 5; index++) {
        const paymentId = newId('pay');
        paymentIds.push(paymentId);
        await ledger.credit(scope, 1_000n + BigInt(index), 10n, paymentId);
        ledger.clock.advance(minutes(1));
      }
    });

    const list = (request: Partial<ledgerV1.ListBalanceTransactionsRequest>) =>
      ledger.client.listBalanceTransactions({ scope, page: undefined, type: 0, ...request });

    it('lists most recent first, each fee after its payment, 20 by default', async () => {
      const { balanceTransactions, hasMore } = await list({});
      expect(hasMore).toBe(false);
      expect(balanceTransactions).toHaveLength(10);
      expect(balanceTransactions.map((movement) => [movement.sourceId, movement.type])).toEqual(
        [...paymentIds].reverse().flatMap((paymentId) => [
          [paymentId, Type.BALANCE_TRANSACTION_TYPE_FEE],
          [paymentId, Type.BALANCE_TRANSACTION_TYPE_PAYMENT],
        ]),
      );
    });

    it('pages with limit and starting_after until has_more is false', async () => {
      const all = (await list({})).balanceTransactions.map((movement) => movement.id);
      const seen: string[] = [];
      let startingAfter: string | undefined;
      let pages = 0;
      for (;;) {
        const page = await list({ page: { limit: 3, ...(startingAfter && { startingAfter }) } });
        pages += 1;
        seen.push(...page.balanceTransactions.map((movement) => movement.id));
        if (!page.hasMore) break;
        startingAfter = page.balanceTransactions.at(-1)?.id;
      }
      expect(pages).toBe(4);
      expect(seen).toEqual(all);
    });

    it('filters on type and on created_from (inclusive) and created_to (exclusive)', async () => {
      const payments = await list({ type: Type.BALANCE_TRANSACTION_TYPE_PAYMENT });
      expect(payments.balanceTransactions.map((movement) => movement.amount)).toEqual([
        1_004n,
        1_003n,
        1_002n,
        1_001n,
        1_000n,
      ]);
      const window = await list({
        type: Type.BALANCE_TRANSACTION_TYPE_FEE,
        createdFrom: new Date(start.getTime() + minutes(1)),
        createdTo: new Date(start.getTime() + minutes(3)),
      });
      expect(window.balanceTransactions.map((movement) => movement.sourceId)).toEqual([
        paymentIds[2],
        paymentIds[1],
      ]);
    });

    it('refuses a limit outside 1..100', async () => {
      await expect(list({ page: { limit: 101 } })).rejects.toMatchObject({
        code: 'parameter_invalid',
        param: 'limit',
      });
    });
  });

  it('keeps on the movements only the indexes their reads use, since each is written with every credit', async () => {
    const reads = [
      // the merchant's list, and the day totals
      `SELECT id FROM balance_transactions WHERE merchant_id = 'mer_x' AND livemode = false
        ORDER BY created_at DESC, seq DESC LIMIT 10`,
      // a list cursor
      "SELECT created_at, seq FROM balance_transactions WHERE id = 'txn_x' AND merchant_id = 'mer_x' AND livemode = false",
      // a repeated credit reads the first one's movements back
      "SELECT id FROM balance_transactions WHERE source_id = 'pay_x' AND type = ANY ('{payment,fee}') ORDER BY seq",
    ];
    const read = await Promise.all(
      reads.map(async (query) => (await scanIndexOf(ledger.db.pool, query))?.index),
    );
    const indexes = await ledger.db.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'balance_transactions'",
    );
    expect(new Set(read)).toEqual(new Set(indexes.map((row) => row.indexname)));
  });
});
