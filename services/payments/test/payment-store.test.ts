import path from 'node:path';
import { DEFAULT_FEE_RULE } from '@sika/fees';
import { Database, newId, SecretBox } from '@sika/platform';
import { createTestSchema, scanIndexOf, waitFor, type TestSchema } from '@sika/testing';
import { sql } from 'kysely';
import { newTxId } from '@sika/rules';
import {
  addAttempt,
  applyAttemptOutcome,
  cancelPayment,
  newPayment,
  type NewAttempt,
} from '../src/domain/lifecycle';
import type { Payment } from '../src/domain/payment';
import type { DB } from '../src/generated/database';
import { SqlPaymentStore } from '../src/infra/sql-payment-store';
import { countingStatements } from './support/counting';
import { PAYER_ALIAS_KEY } from './support/harness';

const MIGRATIONS_DIR = path.join(__dirname, '../prisma/migrations');
const HOUR_MS = 60 * 60_000;

/**
 * Above all, a lock that waited reads what the holder committed: the store's lock* methods lock a payment
 * and read it in one statement, and a transaction that waited for the lock must still get the attempts the
 * previous holder committed, which the statement's own snapshot (taken before the wait) does not have.
 */
describe('SqlPaymentStore', () => {
  let schema: TestSchema;
  let db: Database<DB>;
  const aliases = new SecretBox(Buffer.from(PAYER_ALIAS_KEY, 'hex'));
  let store: SqlPaymentStore;

  beforeAll(async () => {
    schema = await createTestSchema({ prefix: 'payments_locks', migrationsDir: MIGRATIONS_DIR });
    db = new Database<DB>({ url: schema.databaseUrl, schema: schema.schema });
    store = new SqlPaymentStore(aliases, db);
  });

  afterAll(async () => {
    await db?.destroy();
    await schema?.drop();
  });

  const newAttempt = (): NewAttempt => ({
    id: newId('att'),
    txId: newTxId(),
    alias: { value: '+225 0700000001', masked: '+225 07******01' },
    dispatchAfter: new Date(),
  });

  async function storedPayment(): Promise<Payment> {
    return (await committedPayment()).payment;
  }

  async function committedPayment(): Promise<{ payment: Payment; version: string }> {
    const payment = createdPayment(newAttempt());
    const version = await db.transact((tx) => store.insert(tx, payment));
    return { payment, version };
  }

  function createdPayment(firstAttempt: NewAttempt | null): Payment {
    const now = new Date();
    return newPayment(
      {
        id: newId('pay'),
        merchantId: newId('mer'),
        livemode: false,
        amount: 5_000n,
        mode: 'immediate',
        feeRule: DEFAULT_FEE_RULE,
        merchantName: 'Boutique',
        reference: null,
        description: null,
        returnUrl: 'https://shop.example/return',
        cancelUrl: null,
        checkoutUrl: 'https://pay.example/pay',
        metadata: {},
        expiresAt: new Date(now.getTime() + HOUR_MS),
        firstAttempt,
      },
      now,
    );
  }

  /** Whether a statement waits for the lock of a row of this schema's payments table. */
  async function someoneWaits(): Promise<boolean> {
    const [row] = await schema.query<{ waiting: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'tuple' AND relation = $1::regclass) AS waiting`,
      [`"${schema.schema}".payments`],
    );
    return row?.waiting === true;
  }

  /**
   * Runs `lock` while another transaction holds the payment and adds an attempt to it, committing only once
   * `lock` waits; returns what `lock` read.
   */
  async function lockBehindAHolder<T>(payment: Payment, lock: () => Promise<T>): Promise<T> {
    let commit!: () => void;
    const mayCommit = new Promise<void>((resolve) => (commit = resolve));
    let saved!: () => void;
    const hasSaved = new Promise<void>((resolve) => (saved = resolve));
    const holder = db.transact(async (tx) => {
      const locked = await store.lockById(tx, payment.id);
      if (locked === null) throw new Error('the payment is missing');
      await store.save(tx, locked, addAttempt(locked, newAttempt(), new Date()).payment);
      saved();
      await mayCommit;
    });
    await hasSaved;
    const waiter = lock();
    await waitFor(someoneWaits, { description: 'the second lock to wait' });
    commit();
    await holder;
    return waiter;
  }

  it('lockById', async () => {
    const payment = await storedPayment();
    const read = await lockBehindAHolder(payment, () => db.transact((tx) => store.lockById(tx, payment.id)));
    expect(read?.attempts).toHaveLength(2);
  });

  it('lockInScope', async () => {
    const payment = await storedPayment();
    const scope = { merchantId: payment.merchantId, livemode: payment.livemode };
    const read = await lockBehindAHolder(payment, () =>
      db.transact((tx) => store.lockInScope(tx, scope, payment.id)),
    );
    expect(read?.attempts).toHaveLength(2);
  });

  it('lockByTxId', async () => {
    const payment = await storedPayment();
    const txId = payment.attempts[0]?.txId ?? '';
    const read = await lockBehindAHolder(payment, () => db.transact((tx) => store.lockByTxId(tx, txId)));
    expect(read.payment.attempts).toHaveLength(2);
    expect(read.attempt.txId).toBe(txId);
  });

  it('lockByTxIds locks the payments of many attempts by one statement, each tx_id its own, in order', async () => {
    const payments = [await storedPayment(), await storedPayment(), await storedPayment()];
    const txIds = payments.map((payment) => payment.attempts[0]?.txId ?? '').reverse();

    const locked = await db.transact(async (tx) => {
      const counted = countingStatements(tx);
      const read = await store.lockByTxIds(counted.client as typeof tx, txIds);
      // Held until the end of the transaction: another transaction skips them all.
      const free = await schema.query('SELECT id FROM payments WHERE id = ANY($1) FOR UPDATE SKIP LOCKED', [
        payments.map((payment) => payment.id),
      ]);
      return { read, statements: counted.statements(), free };
    });

    expect(locked.statements).toBe(1);
    expect(locked.free).toEqual([]);
    expect(locked.read.map(({ attempt }) => attempt.txId)).toEqual(txIds);
    expect(locked.read.map(({ payment }) => payment)).toEqual([...payments].reverse());
  });

  it('lockByTxIds refuses a batch holding a tx_id of no attempt', async () => {
    const payment = await storedPayment();
    await expect(
      db.transact((tx) => store.lockByTxIds(tx, [payment.attempts[0]?.txId ?? '', 'SIKA_unknown'])),
    ).rejects.toThrow('no attempt has tx_id SIKA_unknown');
  });

  it('recordAll records the outcomes of many payments and their events by one statement', async () => {
    const payments = [await storedPayment(), await storedPayment()];
    const now = new Date();
    const records = payments.map((payment) => ({
      before: payment,
      outcome: applyAttemptOutcome(payment, payment.attempts[0]?.id ?? '', { kind: 'sent' }, now),
    }));

    const statements = await db.transact(async (tx) => {
      const counted = countingStatements(tx);
      await store.recordAll(counted.client as typeof tx, records, now);
      return counted.statements();
    });

    expect(statements).toBe(1);
    for (const { outcome } of records) {
      expect(await store.findById(db, outcome.payment.id)).toEqual(outcome.payment);
    }
    const events = await schema.query<{ payload: Buffer }>('SELECT payload FROM outbox');
    for (const payment of payments) {
      expect(events.filter((row) => row.payload.includes(Buffer.from(payment.id)))).toHaveLength(1);
    }
  });

  it('reads a payment no one else holds as it was stored', async () => {
    const payment = await storedPayment();
    const read = await db.transact((tx) => store.lockById(tx, payment.id));
    expect(read).toEqual(payment);
  });

  it('inserts the payments created together by one statement, each with its attempts and its version', async () => {
    const { client, statements } = countingStatements(db);
    const counted = new SqlPaymentStore(aliases, client);
    const payments = [createdPayment(newAttempt()), createdPayment(null), createdPayment(newAttempt())];

    const versions = await Promise.all(payments.map((payment) => counted.insertAlone(payment)));

    expect(statements()).toBe(1);
    for (const payment of payments) expect(await store.findById(db, payment.id)).toEqual(payment);
    const rows = await schema.query<{ id: string; version: string }>(
      'SELECT id, xmin::text AS version FROM payments WHERE id = ANY($1)',
      [payments.map((payment) => payment.id)],
    );
    const written = new Map(rows.map((row) => [row.id, row.version]));
    expect(versions).toEqual(payments.map((payment) => written.get(payment.id)));
  });

  it('plans the statement that writes a payment once per connection, not on every write', async () => {
    // The planner's choice depends on the tables: 20,000 copies of a payment and no statistics yet (before the
    // first ANALYZE, or with autovacuum off) made it plan the statement on every run.
    const { id } = await storedPayment();
    await schema.query(
      `INSERT INTO payments SELECT (jsonb_populate_record(p, jsonb_build_object('id', p.id || g))).*
         FROM payments p, generate_series(1, 20000) g WHERE p.id = $1`,
      [id],
    );
    await schema.query(
      `INSERT INTO payment_attempts
       SELECT (jsonb_populate_record(a, jsonb_build_object('id', a.id || g, 'payment_id', a.payment_id || g,
                                                           'tx_id', left(a.tx_id, 20) || g))).*
         FROM payment_attempts a, generate_series(1, 20000) g WHERE a.payment_id = $1`,
      [id],
    );
    const oneConnection = new Database<DB>({
      url: schema.databaseUrl,
      schema: schema.schema,
      maxConnections: 1,
    });
    try {
      for (let write = 0; write < 20; write += 1) {
        const payment = await storedPayment();
        const now = new Date();
        const sent = applyAttemptOutcome(payment, payment.attempts[0]?.id ?? '', { kind: 'sent' }, now);
        await oneConnection.transact((tx) => store.record(tx, payment, sent, now));
      }
      // Postgres plans a prepared statement anew for its first 5 runs, then keeps one plan if it is no dearer.
      const {
        rows: [plans],
      } = await sql<{ generic_plans: bigint; custom_plans: bigint }>`
        SELECT generic_plans, custom_plans FROM pg_prepared_statements
        WHERE statement LIKE ${'%update "payments" as "p" set "status"%'}`.execute(oneConnection);
      expect(plans).toEqual({ generic_plans: 15n, custom_plans: 5n });
    } finally {
      await oneConnection.destroy();
    }
  });

  describe('recordIfUnchanged', () => {
    const outboxRowsOf = async (paymentId: string) =>
      (await schema.query<{ payload: Buffer }>('SELECT payload FROM outbox')).filter((row) =>
        row.payload.includes(Buffer.from(paymentId)),
      );

    it('records an outcome, its attempt and its event in one statement while the payment is as committed', async () => {
      const committed = await committedPayment();
      const { payment } = committed;
      const now = new Date();
      const sent = applyAttemptOutcome(payment, payment.attempts[0]?.id ?? '', { kind: 'sent' }, now);

      expect(await store.recordIfUnchanged(committed, sent, now)).toBe(true);
      const stored = await store.findById(db, payment.id);
      expect(stored?.status).toBe('request_sent');
      expect(stored?.attempts[0]?.status).toBe(sent.payment.attempts[0]?.status);
      expect(await outboxRowsOf(payment.id)).toHaveLength(sent.changes.length);
    });

    it('records the outcomes that arrive together by one statement; of two about one payment, the first', async () => {
      const { client, statements } = countingStatements(db);
      const counted = new SqlPaymentStore(aliases, client);
      const [first, second] = [await committedPayment(), await committedPayment()];
      const now = new Date();
      const sentOf = ({ payment }: { payment: Payment }) =>
        applyAttemptOutcome(payment, payment.attempts[0]?.id ?? '', { kind: 'sent' }, now);
      const closed = applyAttemptOutcome(
        first.payment,
        first.payment.attempts[0]?.id ?? '',
        { kind: 'closed' },
        now,
      );

      const recorded = await Promise.all([
        counted.recordIfUnchanged(first, sentOf(first), now),
        counted.recordIfUnchanged(second, sentOf(second), now),
        counted.recordIfUnchanged(first, closed, now),
      ]);

      expect(recorded).toEqual([true, true, false]);
      expect(statements()).toBe(1);
      for (const committed of [first, second]) {
        const stored = await store.findById(db, committed.payment.id);
        expect([stored?.status, stored?.attempts[0]?.status]).toEqual([
          'request_sent',
          sentOf(committed).payment.attempts[0]?.status,
        ]);
        expect(await outboxRowsOf(committed.payment.id)).toHaveLength(sentOf(committed).changes.length);
      }
    });

    it('writes nothing once something changed the payment since, and says so', async () => {
      const committed = await committedPayment();
      const { payment } = committed;
      const now = new Date();
      await db.transact(async (tx) => {
        const locked = await store.lockById(tx, payment.id);
        if (locked === null) throw new Error('the payment is missing');
        await store.record(tx, locked, cancelPayment(locked, now), now);
      });
      const canceled = await store.findById(db, payment.id);
      const eventsBefore = (await outboxRowsOf(payment.id)).length;
      const sent = applyAttemptOutcome(payment, payment.attempts[0]?.id ?? '', { kind: 'sent' }, now);

      expect(await store.recordIfUnchanged(committed, sent, now)).toBe(false);
      expect(canceled?.status).toBe('canceled');
      expect(await store.findById(db, payment.id)).toEqual(canceled);
      expect(await outboxRowsOf(payment.id)).toHaveLength(eventsBefore);
    });
  });

  it('scans for expiry and for attempts to send through indexes of open payments and unanswered attempts', async () => {
    // A payment's final write and an attempt's answer then write no entry there, and the scans skip the history.
    expect(
      await scanIndexOf(
        schema.pool,
        `SELECT id FROM payments WHERE status IN ('created', 'request_sent', 'accepted_deferred')
           AND expires_at <= now() ORDER BY expires_at`,
      ),
    ).toEqual({
      index: 'payments_expiry_idx',
      predicate:
        "(status = ANY (ARRAY['created'::payment_status, 'request_sent'::payment_status, 'accepted_deferred'::payment_status]))",
    });
    expect(
      await scanIndexOf(
        schema.pool,
        "SELECT id FROM payment_attempts WHERE status = 'pending' AND dispatch_after <= now() ORDER BY dispatch_after",
      ),
    ).toEqual({ index: 'payment_attempts_dispatch_idx', predicate: '(dispatch_after IS NOT NULL)' });
  });
});
