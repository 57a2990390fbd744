import path from 'node:path';
import { Database, newId } from '@sika/platform';
import { countingStatements, createTestSchema, type TestSchema } from '@sika/testing';
import { planPaymentCredit } from '../src/domain/payment-credit';
import type { DB } from '../src/generated/database';
import { SqlBookingStore } from '../src/infra/sql-booking-store';

describe('payment credits that arrive together', () => {
  let schema: TestSchema;
  let db: Database<DB>;

  beforeAll(async () => {
    schema = await createTestSchema({
      prefix: 'ledger_batches',
      migrationsDir: path.join(__dirname, '../prisma/migrations'),
    });
    db = new Database<DB>({ url: schema.databaseUrl, schema: schema.schema });
  });

  afterAll(async () => {
    await db?.destroy();
    await schema?.drop();
  });

  /** The store over a client that counts the statements sent through it (outside transactions). */
  function countedStore(): { store: SqlBookingStore; statements: () => number } {
    const { client, statements } = countingStatements<DB>(db);
    return {
      store: new SqlBookingStore(Object.assign(client, { transact: db.transact.bind(db) })),
      statements,
    };
  }

  const createdAt = new Date('2026-03-01T09:00:00.000Z');
  const credit = (store: SqlBookingStore, merchantId: string, paymentId: string, amount: bigint) =>
    store.recordPaymentCredit({
      scope: { merchantId, livemode: false },
      paymentId,
      plan: planPaymentCredit({ paymentId, amount, feeAmount: 10n }),
      createdAt,
    });

  it('are written by one statement, each answered with its own movements', async () => {
    const merchantId = newId('mer');
    const { store, statements } = countedStore();
    // The merchant's accounts exist, and the store knows it: its first credit created them.
    await credit(store, merchantId, newId('pay'), 100n);
    const before = statements();
    const payments = [newId('pay'), newId('pay'), newId('pay')];

    const answers = await Promise.all(
      payments.map((paymentId, index) => credit(store, merchantId, paymentId, 1_000n * BigInt(index + 1))),
    );

    expect(statements() - before).toBe(1);
    expect(
      answers.map(({ created, movements }) => [
        created,
        movements.map((movement) => [movement.sourceId, movement.type, movement.amount]),
      ]),
    ).toEqual(
      payments.map((paymentId, index) => [
        true,
        [
          [paymentId, 'payment', 1_000n * BigInt(index + 1)],
          [paymentId, 'fee', -10n],
        ],
      ]),
    );
  });

  it("create a new merchant's accounts once, before its first credits, which share one statement", async () => {
    const merchantId = newId('mer');
    const { store, statements } = countedStore();
    const payments = [newId('pay'), newId('pay'), newId('pay')];

    const answers = await Promise.all(
      payments.map((paymentId) => credit(store, merchantId, paymentId, 700n)),
    );

    // The accounts, then the credits: none fails on an account not created yet, to be written again.
    expect(statements()).toBe(2);
    expect(answers.every(({ created }) => created)).toBe(true);
    const [{ count } = { count: '' }] = await schema.query<{ count: string }>(
      'SELECT count(*) FROM accounts WHERE owner_id = $1',
      [merchantId],
    );
    expect(count).toBe('1');
  });

  it('write a payment credited twice in one statement once; the repeat reads the first back', async () => {
    const merchantId = newId('mer');
    const { store, statements } = countedStore();
    await credit(store, merchantId, newId('pay'), 100n);
    const before = statements();
    const paymentId = newId('pay');

    const [first, repeat] = await Promise.all([
      credit(store, merchantId, paymentId, 500n),
      credit(store, merchantId, paymentId, 500n),
    ]);

    // The statement of both, then the repeat's read of the first's movements.
    expect(statements() - before).toBe(2);
    expect(first.created).toBe(true);
    expect(repeat).toEqual({ created: false, movements: first.movements });
    const [{ count } = { count: '' }] = await schema.query<{ count: string }>(
      'SELECT count(*) FROM ledger_transactions WHERE source_id = $1',
      [paymentId],
    );
    expect(count).toBe('1');
  });
});
