import path from 'node:path';
import { Database, newId } from '@sika/platform';
import { createTestSchema, readMigrations, type TestSchema } from '@sika/testing';
import { planPaymentCredit } from '../src/domain/payment-credit';
import type { DB } from '../src/generated/database';
import { planPayoutReservation } from '../src/domain/payout';
import { SqlBalanceStore } from '../src/infra/sql-balance-store';
import { SqlBookingStore } from '../src/infra/sql-booking-store';
import { SqlBooksAuditStore } from '../src/infra/sql-books-audit-store';
import { queryOne } from './support';

const MIGRATIONS = path.join(__dirname, '../prisma/migrations');
const MAINTAINED_BALANCES = '20261130090000_maintained_balances';
const createdAt = new Date('2026-03-01T09:00:00.000Z');

/** Each account whose balance is not the sum of its postings: what must stay empty. */
const MISMATCHES = `
  SELECT a.owner_id, a.kind, a.balance::text, COALESCE(sum(p.amount), 0)::text AS postings
    FROM accounts a LEFT JOIN postings p ON p.account_id = a.id
   GROUP BY a.id HAVING a.balance <> COALESCE(sum(p.amount), 0)`;

describe('maintained balances', () => {
  let schema: TestSchema;
  let db: Database<DB>;

  beforeAll(async () => {
    schema = await createTestSchema({ prefix: 'ledger_balances', migrationsDir: MIGRATIONS });
    // Waits for a connection as long as it takes: the test is about the books under contention, not the pool's.
    db = new Database<DB>({ url: schema.databaseUrl, schema: schema.schema, acquireTimeoutMs: 60_000 });
  });

  afterAll(async () => {
    await db?.destroy();
    await schema?.drop();
  });

  const credit = (bookings: SqlBookingStore, merchantId: string, amount: bigint, fee: bigint) => {
    const paymentId = newId('pay');
    return bookings.recordPaymentCredit({
      scope: { merchantId, livemode: false },
      paymentId,
      plan: planPaymentCredit({ paymentId, amount, feeAmount: fee }),
      createdAt,
    });
  };
  const balances = async (merchantId: string) =>
    Object.fromEntries(
      (
        await schema.query<{ kind: string; balance: string }>(
          'SELECT kind, balance::text FROM accounts WHERE owner_id = $1 AND livemode = false',
          [merchantId],
        )
      ).map((row) => [row.kind, BigInt(row.balance)]),
    );

  it('stay the sum of the postings under concurrent credits, payouts and releases of one merchant', async () => {
    // Three booking stores: three ledger replicas, whose batched statements and transactions overlap.
    const replicas = [0, 1, 2].map(() => new SqlBookingStore(db));
    const [hot, other] = [newId('mer'), newId('mer')];
    await credit(replicas[0]!, hot, 1_000n, 0n);
    await credit(replicas[0]!, other, 1_000n, 0n);
    const scope = { merchantId: hot, livemode: false };

    const reserved: string[] = [];
    const work = Array.from({ length: 90 }, async (_, index) => {
      const bookings = replicas[index % 3]!;
      if (index % 3 === 2) {
        const payoutId = newId('po');
        try {
          await bookings.reservePayout({
            scope,
            payoutId,
            createdAt,
            plan: (available) => planPayoutReservation(available, 700n),
          });
          reserved.push(payoutId);
        } catch (error) {
          expect(error).toMatchObject({ code: 'balance_insufficient' });
        }
        return;
      }
      // Credits of both merchants, so statements of different replicas lock overlapping sets of rows.
      await credit(bookings, index % 2 === 0 ? hot : other, 500n, 15n);
    });
    await Promise.all(work);
    await Promise.all(
      reserved.map((payoutId, index) =>
        replicas[index % 3]!.releasePayout({
          scope,
          payoutId,
          outcome: index % 2 === 0 ? 'paid' : 'failed',
          createdAt,
        }),
      ),
    );

    expect(await schema.query(MISMATCHES)).toEqual([]);
    const credits = 30n; // indexes 0..89 that are neither payouts (index % 3 = 2) nor odd: 30 to the hot one
    const paid = BigInt(reserved.filter((_, index) => index % 2 === 0).length);
    expect(await balances(hot)).toEqual({
      available: 1_000n + credits * 485n - paid * 700n,
      pending_payout: 0n,
    });
    expect((await new SqlBooksAuditStore(db).auditBooks(false)).balanceMismatches).toEqual([]);
  });

  it('add several credits of one merchant written by one statement, each counted', async () => {
    const bookings = new SqlBookingStore(db);
    const merchantId = newId('mer');
    await credit(bookings, merchantId, 100n, 10n);

    await Promise.all([1_000n, 2_000n, 3_000n].map((amount) => credit(bookings, merchantId, amount, 10n)));

    expect(await balances(merchantId)).toEqual({ available: 90n + 6_000n - 30n });
    const fees = await new SqlBalanceStore(db).systemAccountTotal(false, 'fee_revenue');
    const { total } = await queryOne<{ total: string }>(
      schema,
      `SELECT sum(p.amount)::text AS total FROM postings p JOIN accounts a ON a.id = p.account_id
        WHERE a.owner_id = 'sika' AND a.livemode = false AND a.kind = 'fee_revenue'`,
    );
    expect(fees).toBe(BigInt(total));
  });

  it("are refused below zero on a merchant's account by the database, and may be on Sika's", async () => {
    const bookings = new SqlBookingStore(db);
    const merchantId = newId('mer');
    await credit(bookings, merchantId, 100n, 0n);
    const { available, scheme } = await queryOne<{ available: string; scheme: string }>(
      schema,
      `SELECT (SELECT id FROM accounts WHERE owner_id = $1 AND kind = 'available' AND NOT livemode) AS available,
              (SELECT id FROM accounts WHERE owner_id = 'sika' AND kind = 'scheme_settlement' AND NOT livemode) AS scheme`,
      [merchantId],
    );
    const post = (amount: number) =>
      schema.query(
        `WITH t AS (INSERT INTO ledger_transactions (kind, source_id, created_at)
                    VALUES ('test', $1, now()) RETURNING id)
         INSERT INTO postings (ledger_transaction_id, account_id, amount)
         SELECT t.id, a.account, a.amount FROM t,
                (VALUES ($2::bigint, -$4::bigint), ($3::bigint, $4::bigint)) AS a (account, amount)`,
        [newId('pay'), available, scheme, amount],
      );

    await expect(post(101)).rejects.toThrow(
      /the available balance of mer_\w+ in test mode cannot be negative: -1/,
    );
    await post(100);
    expect(await balances(merchantId)).toEqual({ available: 0n });
    // Sika's side of every credit: the scheme owes it the money merchants hold.
    expect(await new SqlBalanceStore(db).systemAccountTotal(false, 'scheme_settlement')).toBeLessThan(0n);
    await expect(new SqlBalanceStore(db).systemAccountTotal(true, 'scheme_settlement')).resolves.toBe(0n);
  });

  it('change only with postings: an update of a balance, or an account created with one, is refused', async () => {
    const merchantId = newId('mer');
    await credit(new SqlBookingStore(db), merchantId, 100n, 0n);
    await expect(
      schema.query('UPDATE accounts SET balance = balance + 1 WHERE owner_id = $1', [merchantId]),
    ).rejects.toThrow(/accounts.balance is the sum of the account's postings: UPDATE refused/);
    await expect(
      schema.query(
        "INSERT INTO accounts (owner_id, livemode, kind, balance) VALUES ($1, true, 'available', 5)",
        [merchantId],
      ),
    ).rejects.toThrow(/INSERT refused/);
    expect(await balances(merchantId)).toEqual({ available: 100n });
  });
});

describe('the migration to maintained balances', () => {
  it('sets each existing account to the sum of its postings', async () => {
    const schema = await createTestSchema({ prefix: 'ledger_backfill' });
    try {
      const migrations = await readMigrations(MIGRATIONS);
      const before = migrations.filter((migration) => migration.name < MAINTAINED_BALANCES);
      const rest = migrations.filter((migration) => migration.name >= MAINTAINED_BALANCES);
      for (const migration of before) await schema.query(migration.sql);
      // Books written before the migration: two merchants' accounts and Sika's, one account never posted to.
      await schema.query(`
        INSERT INTO accounts (owner_id, livemode, kind) VALUES
          ('mer_a', false, 'available'), ('mer_b', false, 'available'), ('mer_b', false, 'pending_payout'),
          ('sika', false, 'scheme_settlement'), ('mer_c', true, 'available');
        INSERT INTO ledger_transactions (kind, source_id, created_at)
          SELECT 'payment_credit', 'pay_' || n, now() FROM generate_series(1, 300) AS n;
        INSERT INTO postings (ledger_transaction_id, account_id, amount)
          SELECT t.id, a.id, CASE WHEN a.kind = 'available' THEN t.id * 10 ELSE -t.id * 10 END
            FROM ledger_transactions t
            JOIN accounts a ON a.owner_id IN (CASE WHEN t.id % 3 = 0 THEN 'mer_b' ELSE 'mer_a' END, 'sika')
                           AND a.kind IN ('available', 'scheme_settlement');`);

      for (const migration of rest) await schema.query(migration.sql);

      expect(await schema.query(MISMATCHES)).toEqual([]);
      const rows = await schema.query<{ owner_id: string; kind: string; balance: string }>(
        'SELECT owner_id, kind, balance::text FROM accounts ORDER BY owner_id, kind',
      );
      // A fresh schema numbers the ledger transactions 1 to 300.
      const ids = Array.from({ length: 300 }, (_, index) => index + 1);
      const sum = (of: number[]) => String(of.reduce((total, id) => total + id * 10, 0));
      expect(rows).toEqual([
        { owner_id: 'mer_a', kind: 'available', balance: sum(ids.filter((id) => id % 3 !== 0)) },
        { owner_id: 'mer_b', kind: 'available', balance: sum(ids.filter((id) => id % 3 === 0)) },
        { owner_id: 'mer_b', kind: 'pending_payout', balance: '0' },
        { owner_id: 'mer_c', kind: 'available', balance: '0' },
        { owner_id: 'sika', kind: 'scheme_settlement', balance: `-${sum(ids)}` },
      ]);
    } finally {
      await schema.drop();
    }
  });
});
