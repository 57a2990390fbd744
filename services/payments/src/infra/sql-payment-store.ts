import { PAYMENT_EVENTS } from '@sika/contracts';
import {
  firstOfEachKey,
  PreparedQuery,
  StatementBatcher,
  withContextFrom,
  type SecretBox,
} from '@sika/platform';
import { sql, type RawBuilder } from 'kysely';
import type {
  CommittedPayment,
  OutcomeRecord,
  PaymentListQuery,
  PaymentsAudit,
  PaymentStore,
  Scope,
} from '../app/ports';
import type { Outcome } from '../domain/lifecycle';
import type { Attempt, Payment, RefundStatus } from '../domain/payment';
import type { Reader, Tx } from './database';
import { outboxRows, type OutboxEvent, type OutboxRows } from '@sika/messaging';
import { outcomeMessages } from './payment-events';
import type { PaymentStatus as PaymentStatusColumn } from '../generated/database';
import {
  attemptChangeColumns,
  newAttemptColumns,
  paymentFromRow,
  refundsColumnOf,
  type AttemptRow,
  type PaymentRow,
} from './payment-rows';

/** Payments one statement of insertAlone or recordIfUnchanged writes at most. */
const MAX_BATCH = 100;

/** A payment's changes and the messages announcing them; with `expectedVersion`, only over that version. */
interface PaymentChange {
  before: Payment;
  after: Payment;
  messages: readonly OutboxEvent[];
  expectedVersion: string | null;
}

/** The arrays of insertAll's statement: one per column of the payments, then the new attempts' columns. */
interface InsertValues {
  payments: ReturnType<typeof paymentColumns>;
  attemptOwners: string[];
  attempts: ReturnType<typeof newAttemptColumns>;
}

/** The arrays of writeAll's statement: one per column of each table it writes. */
interface WriteValues {
  id: string[];
  status: Payment['status'][];
  feeAmount: Payment['feeAmount'][];
  netAmount: Payment['netAmount'][];
  updatedAt: Date[];
  expectedVersion: (string | null)[];
  addedOwners: string[];
  added: ReturnType<typeof newAttemptColumns>;
  messageOwners: string[];
  messages: OutboxRows;
  changedOwners: string[];
  changed: ReturnType<typeof attemptChangeColumns>;
}

/**
 * Payments and their attempts in the `payments` schema. Changes happen under a row lock on the payment
 * (lock* methods, inside a transaction), so concurrent updates of one payment (a scheme callback, a
 * cancellation, the expiry scheduler) apply one after the other on the latest state. Payer aliases are
 * sealed with `aliases` when written and opened when read.
 *
 * A payment is read with its attempts in one statement (a JSON array in sequence order), and locked by the
 * same statement. A statement that waited for the lock reads the payment row as the previous holder left it
 * but its attempts in the snapshot it started with, which may miss what the holder committed; every change of
 * an attempt's lifecycle updates its payment row too (save), so the row's version (xmin) then differs from
 * the one in the snapshot, and the payment is read again (see readLocked).
 */
export class SqlPaymentStore implements PaymentStore {
  private readonly insertsAlone: StatementBatcher<Payment, string>;
  private readonly recordsIfUnchanged: StatementBatcher<PaymentChange, string | null>;
  /** insertAll's statement, compiled once (PreparedQuery): it runs for every payment created. */
  private readonly insertStatement = new PreparedQuery<InsertValues, { id: string; version: string }>(
    (_param, values) => this.insertStatementOf(values),
  );
  /** writeAll's statement, compiled once (PreparedQuery): it runs for every change of every payment. */
  private readonly writeStatement = new PreparedQuery<WriteValues, { id: string; version: string }>(
    (_param, values) => this.writeStatementOf(values),
  );
  /** findById's statement, compiled once (PreparedQuery): the hosted page reads every payment by it. */
  private readonly byIdStatement = new PreparedQuery<{ id: string }, PaymentRow, Reader>(
    (param, _values, db) => selectPayments(db).where('p.id', '=', param('id')),
  );
  /** lockByTxIds' statement, compiled once (PreparedQuery): every scheme update of a payment runs it. */
  private readonly lockByTxIdsStatement = new PreparedQuery<
    { txIds: readonly string[] },
    LockedPaymentRow,
    Tx
  >((param, _values, tx) =>
    selectLockedPayments(tx)
      .where('p.id', 'in', (eb) =>
        eb
          .selectFrom('payment_attempts')
          .select('payment_id')
          .where(
            'tx_id',
            'in',
            tx.selectNoFrom(sql<string>`unnest(${arrayParam(param('txIds'), 'text')})`.as('tx_id')),
          ),
      )
      .orderBy('p.id')
      .forUpdate('p'),
  );

  /** `pool` serves the statements of insertAlone and recordIfUnchanged. */
  constructor(
    private readonly aliases: SecretBox,
    private readonly pool: Reader,
  ) {
    this.insertsAlone = new StatementBatcher((payments) => this.insertAll(this.pool, payments), {
      maxBatchSize: MAX_BATCH,
    });
    this.recordsIfUnchanged = new StatementBatcher((changes) => this.writeAll(this.pool, changes), {
      maxBatchSize: MAX_BATCH,
    });
  }

  async insert(tx: Tx, payment: Payment): Promise<string> {
    const [version] = await this.insertAll(tx, [payment]);
    if (version === undefined) throw new Error(`payment ${payment.id} was not inserted`);
    return version;
  }

  /**
   * By a statement that commits by itself and inserts every payment arriving in the same turn of the event
   * loop (StatementBatcher): under load one statement and one commit serve many creations, and each caller
   * goes on only once its own payment is committed.
   */
  insertAlone(payment: Payment): Promise<string> {
    return this.insertsAlone.write(payment);
  }

  /**
   * The payments and their attempts in one statement (the attempts' foreign key is checked at its end);
   * the version each payment's row was written with (see recordIfUnchanged), in order. The arrays are
   * unnested from sub-selects so that the plan stays generic (see write).
   */
  private async insertAll(db: Reader, payments: readonly Payment[]): Promise<string[]> {
    const attempts = payments.flatMap((payment) => payment.attempts);
    const rows = await this.insertStatement.execute(db, {
      payments: paymentColumns(payments),
      attemptOwners: payments.flatMap((payment) => payment.attempts.map(() => payment.id)),
      attempts: newAttemptColumns(attempts, this.aliases),
    });
    const versions = new Map(rows.map((row) => [row.id, row.version]));
    return payments.map((payment) => {
      const version = versions.get(payment.id);
      if (version === undefined) throw new Error(`payment ${payment.id} was not inserted`);
      return version;
    });
  }

  async findById(db: Reader, id: string): Promise<Payment | null> {
    const [row] = await this.byIdStatement.execute(db, { id });
    return row === undefined ? null : paymentFromRow(row, this.aliases);
  }

  /** Another merchant's or mode's payment is null, exactly as one that does not exist. */
  async findInScope(db: Reader, scope: Scope, id: string): Promise<Payment | null> {
    const row = await selectPayments(db)
      .where('p.id', '=', id)
      .where('p.merchant_id', '=', scope.merchantId)
      .where('p.livemode', '=', scope.livemode)
      .executeTakeFirst();
    return row === undefined ? null : paymentFromRow(row, this.aliases);
  }

  async findByAttemptId(db: Reader, attemptId: string): Promise<Payment | null> {
    const row = await selectPayments(db)
      .where('p.id', '=', (eb) =>
        eb.selectFrom('payment_attempts').select('payment_id').where('id', '=', attemptId),
      )
      .executeTakeFirst();
    return row === undefined ? null : paymentFromRow(row, this.aliases);
  }

  /** Locks the payment row until the end of the transaction and reads it with its attempts. */
  async lockById(tx: Tx, id: string): Promise<Payment | null> {
    const row = await selectLockedPayments(tx).where('p.id', '=', id).forUpdate('p').executeTakeFirst();
    return this.readLocked(tx, row);
  }

  async lockInScope(tx: Tx, scope: Scope, id: string): Promise<Payment | null> {
    const row = await selectLockedPayments(tx)
      .where('p.id', '=', id)
      .where('p.merchant_id', '=', scope.merchantId)
      .where('p.livemode', '=', scope.livemode)
      .forUpdate('p')
      .executeTakeFirst();
    return this.readLocked(tx, row);
  }

  async lockByTxId(tx: Tx, txId: string): Promise<{ payment: Payment; attempt: Attempt }> {
    const [locked] = await this.lockByTxIds(tx, [txId]);
    if (locked === undefined) throw new Error(`no attempt has tx_id ${txId}`);
    return locked;
  }

  /**
   * lockByTxId of many attempts in one statement, their payments locked in the order of their ids, so that two
   * such statements never wait for each other (the expiry skips locked payments); each tx_id's, in order.
   * Throws when any tx_id is not one of an attempt.
   */
  async lockByTxIds(tx: Tx, txIds: readonly string[]): Promise<{ payment: Payment; attempt: Attempt }[]> {
    const rows = await this.lockByTxIdsStatement.execute(tx, { txIds });
    const attempts = new Map<string, { payment: Payment; attempt: Attempt }>();
    for (const row of rows) {
      const payment = await this.readLocked(tx, row);
      if (payment === null) continue;
      for (const attempt of payment.attempts) attempts.set(attempt.txId, { payment, attempt });
    }
    return txIds.map((txId) => {
      const found = attempts.get(txId);
      if (found === undefined) throw new Error(`no attempt has tx_id ${txId}`);
      return found;
    });
  }

  /**
   * The payment a lock* statement locked and read, read again when the statement waited for another holder
   * that changed it: its attempts came from before the wait.
   */
  private async readLocked(tx: Tx, row: LockedPaymentRow | undefined): Promise<Payment | null> {
    if (row === undefined) return null;
    if (row.locked_version !== row.read_version) return this.findById(tx, row.id);
    return paymentFromRow(row, this.aliases);
  }

  async audit(db: Reader, livemode: boolean): Promise<PaymentsAudit> {
    const succeeded = await db
      .selectFrom('payments')
      .select('id')
      .where('livemode', '=', livemode)
      .where('status', '=', sql.lit('succeeded'))
      .execute();
    // Every transfer owed back, and every attempt that should owe one but records none (refund_status null).
    const owed = await db
      .selectFrom('payment_attempts as a')
      .innerJoin('payments as p', 'p.id', 'a.payment_id')
      .leftJoin(sql<{ refund: unknown }>`jsonb_array_elements(a.refunds)`.as<'r'>(sql`r (refund)`), (join) =>
        join.onTrue(),
      )
      .select([
        'a.payment_id',
        'a.tx_id',
        sql<string | null>`r.refund->>'end_to_end_id'`.as('end_to_end_id'),
        sql<RefundStatus | null>`r.refund->>'status'`.as('refund_status'),
      ])
      .where('p.livemode', '=', livemode)
      .where((eb) =>
        eb.or([
          eb('a.refunds', '<>', sql.lit('[]')),
          eb.ref('a.duplicate'),
          eb('a.failure_code', 'in', [sql.lit('amount_mismatch'), sql.lit('payee_mismatch')]),
          eb.and([eb('a.status', '=', sql.lit('succeeded')), eb('p.status', '<>', sql.lit('succeeded'))]),
        ]),
      )
      .execute();
    const events = await db
      .selectFrom('outbox')
      .select('id')
      .where('routing_key', 'like', PAYMENT_EVENTS.routingKey('payment.%'))
      .execute();
    return {
      paymentEventMessageIds: events.map((row) => row.id),
      succeededPaymentIds: succeeded.map((row) => row.id),
      owedRefunds: owed.map((row) => ({
        paymentId: row.payment_id,
        txId: row.tx_id,
        endToEndId: row.end_to_end_id,
        refundStatus: row.refund_status,
      })),
    };
  }

  async findSucceeded(db: Reader, paymentIds: readonly string[]): Promise<string[]> {
    const rows = await db
      .selectFrom('payments')
      .select('id')
      .where('id', '=', sql<string>`any(${paymentIds}::text[])`)
      .where('status', '=', sql.lit('succeeded'))
      .execute();
    return rows.map((row) => row.id);
  }

  /** The outcome's payment and the messages announcing it (see outcomeMessages), in one statement. */
  async record(tx: Tx, before: Payment, outcome: Outcome, now: Date): Promise<void> {
    await this.recordAll(tx, [{ before, outcome }], now);
  }

  /**
   * record of many payments (each once) in one statement. Each record's events carry its `traceHeaders` when
   * given (the trace of the message that decided it), else the active context's.
   */
  async recordAll(tx: Tx, records: readonly OutcomeRecord[], now: Date): Promise<void> {
    const changes = records.map(({ before, outcome, traceHeaders }) => ({
      before,
      after: outcome.payment,
      messages: withContextFrom(traceHeaders, () => outcomeMessages(outcome, now)),
      expectedVersion: null,
    }));
    const written = await this.writeAll(tx, changes);
    const unwritten = changes.filter((_, index) => written[index] === null);
    if (unwritten.length > 0) {
      throw new Error(`payments ${unwritten.map((change) => change.after.id).join(', ')} were not recorded`);
    }
  }

  /**
   * record without a lock: applied, in one statement committed by itself, only if the payment row is still
   * the version `committed` has; false (nothing written) if anything changed it since. The row's version is
   * its xmin, which every write of the payment or of its attempts' lifecycle moves (see write). The records
   * arriving in the same turn of the event loop share one statement (StatementBatcher); of two about one
   * payment there, the later answers false, as if the first had changed the payment before it.
   */
  async recordIfUnchanged(committed: CommittedPayment, outcome: Outcome, now: Date): Promise<boolean> {
    const change: PaymentChange = {
      before: committed.payment,
      after: outcome.payment,
      messages: outcomeMessages(outcome, now),
      expectedVersion: committed.version,
    };
    return (await this.recordsIfUnchanged.write(change)) !== null;
  }

  /** The payment's fields, its new attempts and its changed attempts, in one statement; the new version. */
  async save(tx: Tx, before: Payment, after: Payment): Promise<string> {
    const version = await this.write(tx, before, after, [], null);
    if (version === null) throw new Error(`payment ${after.id} was not saved`);
    return version;
  }

  /** write for one payment: the version written, or null when nothing was. */
  private async write(
    tx: Tx,
    before: Payment,
    after: Payment,
    messages: readonly OutboxEvent[],
    expectedVersion: string | null,
  ): Promise<string | null> {
    const [version] = await this.writeAll(tx, [{ before, after, messages, expectedVersion }]);
    return version ?? null;
  }

  /**
   * Each payment's changes and messages, in one statement; with an `expectedVersion`, a payment's only if its
   * row is still that version. Returns the version written for each, in order, or null when nothing was (and
   * for a later change of a payment already changed in the same call). The payment row is updated even when
   * only attempts changed, so its version moves with them (lock* relies on it too).
   */
  private async writeAll(db: Reader, changes: readonly PaymentChange[]): Promise<(string | null)[]> {
    const written = firstOfEachKey(changes, (change) => change.after.id);
    const added = written.flatMap(({ before, after }) => {
      const previous = new Set(before.attempts.map((attempt) => attempt.id));
      return after.attempts
        .filter((attempt) => !previous.has(attempt.id))
        .map((attempt) => ({ attempt, paymentId: after.id }));
    });
    const changed = written.flatMap(({ before, after }) => {
      const previous = new Map(before.attempts.map((attempt) => [attempt.id, attempt]));
      return after.attempts
        .filter((attempt) => {
          const earlier = previous.get(attempt.id);
          return earlier !== undefined && attemptChanged(earlier, attempt);
        })
        .map((attempt) => ({ attempt, paymentId: after.id }));
    });
    const messageOwners = written.flatMap(({ after, messages }) => messages.map(() => after.id));
    const n = newAttemptColumns(
      added.map(({ attempt }) => attempt),
      this.aliases,
    );
    const c = attemptChangeColumns(changed.map(({ attempt }) => attempt));
    const o = outboxRows(written.flatMap((change) => change.messages));
    const rows = await this.writeStatement.execute(db, {
      id: written.map((w) => w.after.id),
      status: written.map((w) => w.after.status),
      feeAmount: written.map((w) => w.after.feeAmount),
      netAmount: written.map((w) => w.after.netAmount),
      updatedAt: written.map((w) => w.after.updatedAt),
      expectedVersion: written.map((w) => w.expectedVersion),
      addedOwners: added.map(({ paymentId }) => paymentId),
      added: n,
      messageOwners,
      messages: o,
      changedOwners: changed.map((each) => each.paymentId),
      changed: c,
    });
    const versions = new Map(rows.map((row) => [row.id, row.version]));
    const answers = new Map(written.map((change) => [change, versions.get(change.after.id) ?? null]));
    return changes.map((change) => answers.get(change) ?? null);
  }

  /** insertAll's one statement, on the arrays of its payments and their attempts (InsertValues). */
  private insertStatementOf(v: InsertValues) {
    const p = unnested('p', {
      id: arrayParam(v.payments.id, 'text'),
      merchant_id: arrayParam(v.payments.merchantId, 'text'),
      livemode: arrayParam(v.payments.livemode, 'boolean'),
      status: arrayParam(v.payments.status, 'payment_status'),
      amount: arrayParam(v.payments.amount, 'bigint'),
      currency: arrayParam(v.payments.currency, 'text'),
      mode: arrayParam(v.payments.mode, 'payment_mode'),
      fee_rate_bps: arrayParam(v.payments.feeRateBps, 'int'),
      fee_fixed_amount: arrayParam(v.payments.feeFixedAmount, 'bigint'),
      merchant_name: arrayParam(v.payments.merchantName, 'text'),
      fee_amount: arrayParam(v.payments.feeAmount, 'bigint'),
      net_amount: arrayParam(v.payments.netAmount, 'bigint'),
      reference: arrayParam(v.payments.reference, 'text'),
      description: arrayParam(v.payments.description, 'text'),
      return_url: arrayParam(v.payments.returnUrl, 'text'),
      cancel_url: arrayParam(v.payments.cancelUrl, 'text'),
      checkout_url: arrayParam(v.payments.checkoutUrl, 'text'),
      metadata: arrayParam(v.payments.metadata, 'jsonb'),
      expires_at: arrayParam(v.payments.expiresAt, 'timestamptz'),
      created_at: arrayParam(v.payments.createdAt, 'timestamptz'),
      updated_at: arrayParam(v.payments.updatedAt, 'timestamptz'),
    });
    const a = newAttemptsUnnested(v.attemptOwners, v.attempts);
    return this.pool
      .with('payment', (db) =>
        db
          .insertInto('payments')
          .columns(p.columns)
          .expression(db.selectFrom(p.table).selectAll())
          .returning(['id', sql<string>`xmin`.as('xmin')]),
      )
      .with('attempts', (db) =>
        db.insertInto('payment_attempts').columns(a.columns).expression(db.selectFrom(a.table).selectAll()),
      )
      .selectFrom('payment')
      .select(['id', sql<string>`xmin::text`.as('version')]);
  }

  /** writeAll's one statement, on the arrays of its changes (WriteValues). */
  private writeStatementOf(v: WriteValues) {
    const n = newAttemptsUnnested(v.addedOwners, v.added);
    return this.pool
      .with('payment', (db) =>
        db
          .updateTable('payments as p')
          .from(
            unnested('u', {
              id: arrayParam(v.id, 'text'),
              status: arrayParam(v.status, 'payment_status'),
              fee_amount: arrayParam(v.feeAmount, 'bigint'),
              net_amount: arrayParam(v.netAmount, 'bigint'),
              updated_at: arrayParam(v.updatedAt, 'timestamptz'),
              expected_version: arrayParam(v.expectedVersion, 'text'),
            }).table,
          )
          .set((eb) => ({
            status: eb.ref('u.status'),
            fee_amount: eb.ref('u.fee_amount'),
            net_amount: eb.ref('u.net_amount'),
            updated_at: eb.ref('u.updated_at'),
          }))
          .whereRef('p.id', '=', 'u.id')
          .where((eb) =>
            eb.or([
              eb('u.expected_version', 'is', null),
              eb(sql`p.xmin::text`, '=', eb.ref('u.expected_version')),
            ]),
          )
          .returning(['p.id', sql<string>`p.xmin`.as('xmin')]),
      )
      .with('added', (db) =>
        db
          .insertInto('payment_attempts')
          .columns(n.columns)
          .expression(
            db
              .selectFrom(n.table)
              .selectAll()
              .where('n.payment_id', 'in', db.selectFrom('payment').select('id')),
          ),
      )
      .with('messages', (db) =>
        db
          .insertInto('outbox')
          .columns(['id', 'routing_key', 'type', 'payload', 'headers', 'created_at'])
          .expression(
            db
              .selectFrom(
                sql<{
                  payment_id: string;
                  id: string;
                  routing_key: string;
                  type: string;
                  payload: Buffer;
                  headers: Record<string, unknown>;
                  n: bigint;
                }>`unnest(${sql.join([
                  arrayParam(v.messageOwners, 'text'),
                  arrayParam(v.messages.ids, 'text'),
                  arrayParam(v.messages.routingKeys, 'text'),
                  arrayParam(v.messages.types, 'text'),
                  arrayParam(v.messages.payloads, 'bytea'),
                  arrayParam(v.messages.headers, 'jsonb'),
                ])}) WITH ORDINALITY`.as<'e'>(
                  sql`e (payment_id, id, routing_key, type, payload, headers, n)`,
                ),
              )
              .select([
                'e.id',
                'e.routing_key',
                'e.type',
                'e.payload',
                'e.headers',
                sql<Date>`clock_timestamp() + e.n * interval '1 microsecond'`.as('created_at'),
              ])
              .where('e.payment_id', 'in', db.selectFrom('payment').select('id')),
          ),
      )
      .with('changed', (db) =>
        db
          .updateTable('payment_attempts as a')
          .from(
            unnested('c', {
              payment_id: arrayParam(v.changedOwners, 'text'),
              id: arrayParam(v.changed.id, 'text'),
              status: arrayParam(v.changed.status, 'attempt_status'),
              duplicate: arrayParam(v.changed.duplicate, 'boolean'),
              failure_code: arrayParam(v.changed.failureCode, 'text'),
              refunds: arrayParam(v.changed.refunds, 'jsonb'),
              reason_code: arrayParam(v.changed.reasonCode, 'text'),
              end_to_end_id: arrayParam(v.changed.endToEndId, 'text'),
              dispatch_after: arrayParam(v.changed.dispatchAfter, 'timestamptz'),
              updated_at: arrayParam(v.changed.updatedAt, 'timestamptz'),
            }).table,
          )
          .set((eb) => ({
            status: eb.ref('c.status'),
            duplicate: eb.ref('c.duplicate'),
            failure_code: eb.ref('c.failure_code'),
            refunds: eb.ref('c.refunds'),
            reason_code: eb.ref('c.reason_code'),
            end_to_end_id: eb.ref('c.end_to_end_id'),
            dispatch_after: eb.ref('c.dispatch_after'),
            updated_at: eb.ref('c.updated_at'),
          }))
          .whereRef('a.id', '=', 'c.id')
          .whereRef('a.payment_id', '=', 'c.payment_id')
          .where('c.payment_id', 'in', db.selectFrom('payment').select('id')),
      )
      .selectFrom('payment')
      .select(['id', sql<string>`xmin::text`.as('version')]);
  }

  /** Most recent first, keyset-paginated on (created_at, id); one row more than asked tells has_more. */
  async list(db: Reader, query: PaymentListQuery): Promise<{ payments: Payment[]; hasMore: boolean }> {
    const { scope, after } = query;
    const afterCreatedAt = after?.createdAt ?? null;
    const afterId = after?.id ?? null;
    // Every filter is in the statement, void when its value is null: one statement text whichever are given.
    const rows = await selectPayments(db)
      .where('p.merchant_id', '=', scope.merchantId)
      .where('p.livemode', '=', scope.livemode)
      .where((eb) =>
        eb.and([
          eb.or([
            eb(eb.cast(eb.val(query.status), 'text'), 'is', null),
            eb('p.status', '=', eb.cast<PaymentStatusColumn>(eb.val(query.status), sql`payment_status`)),
          ]),
          eb.or([
            eb(eb.cast(eb.val(query.reference), 'text'), 'is', null),
            eb('p.reference', '=', query.reference),
          ]),
          eb.or([
            eb(eb.cast(eb.val(query.createdFrom), 'timestamptz'), 'is', null),
            eb('p.created_at', '>=', eb.cast<Date>(eb.val(query.createdFrom), 'timestamptz')),
          ]),
          eb.or([
            eb(eb.cast(eb.val(query.createdTo), 'timestamptz'), 'is', null),
            eb('p.created_at', '<', eb.cast<Date>(eb.val(query.createdTo), 'timestamptz')),
          ]),
          eb.or([
            eb(eb.cast(eb.val(afterCreatedAt), 'timestamptz'), 'is', null),
            eb('p.created_at', '<', eb.cast<Date>(eb.val(afterCreatedAt), 'timestamptz')),
            eb.and([
              eb('p.created_at', '=', eb.cast<Date>(eb.val(afterCreatedAt), 'timestamptz')),
              eb('p.id', '<', eb.val(afterId)),
            ]),
          ]),
        ]),
      )
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id', 'desc')
      .limit(query.limit + 1)
      .execute();
    return {
      payments: rows.slice(0, query.limit).map((row) => paymentFromRow(row, this.aliases)),
      hasMore: rows.length > query.limit,
    };
  }

  async delete(tx: Tx, id: string): Promise<void> {
    await tx.deleteFrom('payment_attempts').where('payment_id', '=', id).execute();
    await tx.deleteFrom('payments').where('id', '=', id).execute();
  }

  async moveDeadline(tx: Tx, id: string, expiresAt: Date): Promise<void> {
    await tx.updateTable('payments').set({ expires_at: expiresAt }).where('id', '=', id).execute();
  }

  /**
   * Locks up to `limit` open payments (created, request_sent, accepted_deferred: spec §3.2) past their
   * deadline, skipping those another replica (or a callback) holds: several schedulers share the work
   * without waiting on each other.
   */
  async lockExpired(tx: Tx, now: Date, since: Date | null, limit: number): Promise<Payment[]> {
    const locked = await tx
      .selectFrom('payments')
      .select('id')
      .where('status', 'in', OPEN_STATUSES)
      .where('expires_at', '<=', now)
      .where('expires_at', '>', (eb) =>
        eb.fn.coalesce(eb.cast<Date | null>(eb.val(since), 'timestamptz'), sql<Date>`'-infinity'`),
      )
      .orderBy('expires_at')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (locked.length === 0) return [];
    const rows = await selectPayments(tx)
      .where('p.id', '=', sql<string>`any(${locked.map((row) => row.id)}::text[])`)
      .orderBy('p.expires_at')
      .execute();
    return rows.map((row) => paymentFromRow(row, this.aliases));
  }

  /**
   * Claims pending attempts due for (re)sending by pushing their dispatch_after to `leaseUntil`: another
   * sweeper skips them until then, and if this one dies they become due again.
   */
  async claimDueAttempts(db: Reader, now: Date, leaseUntil: Date, limit: number): Promise<string[]> {
    const rows = await db
      .updateTable('payment_attempts')
      .set({ dispatch_after: leaseUntil })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('payment_attempts')
          .select('id')
          .where('status', '=', sql.lit('pending'))
          .where('dispatch_after', '<=', now)
          .orderBy('dispatch_after')
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Erases the sealed alias of up to `limit` attempts of payments final (succeeded, declined, expired,
   * canceled, failed) and unchanged since `finalBefore`: the masked alias stays. Returns how many.
   */
  async erasePayerAliases(db: Reader, finalBefore: Date, limit: number): Promise<number> {
    const result = await db
      .updateTable('payment_attempts')
      .set({ payer_alias_sealed: null })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('payment_attempts as a')
          .innerJoin('payments as p', 'p.id', 'a.payment_id')
          .select('a.id')
          .where('a.payer_alias_sealed', 'is not', null)
          .where('p.status', 'in', FINAL_STATUSES)
          .where('p.updated_at', '<=', finalBefore)
          .limit(limit)
          .forUpdate('a')
          .skipLocked(),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}

/**
 * Statuses as literals, not parameters: the partial index payments_expiry_idx serves a statement only when the
 * planner sees its predicate's list.
 */
const OPEN_STATUSES = (['created', 'request_sent', 'accepted_deferred'] as const).map((status) =>
  sql.lit(status),
);
const FINAL_STATUSES = (['succeeded', 'declined', 'expired', 'canceled', 'failed'] as const).map((status) =>
  sql.lit(status),
);

/**
 * A payment row with its attempts in sequence order (a JSON array), from `payments p`: the payment and its
 * attempts in one statement.
 */
function selectPayments(db: Reader) {
  return db
    .selectFrom('payments as p')
    .selectAll('p')
    .select((eb) =>
      eb
        .selectFrom('payment_attempts as a')
        .select(sql<AttemptRow[]>`coalesce(json_agg(a ORDER BY a.sequence), '[]')`.as('attempts'))
        .whereRef('a.payment_id', '=', 'p.id')
        .$asScalar()
        .$notNull()
        .as('attempts'),
    );
}

/** selectPayments with the row's versions: as locked, and as the statement's snapshot read it (readLocked). */
function selectLockedPayments(tx: Tx) {
  return selectPayments(tx).select([
    sql<string>`p.xmin::text`.as('locked_version'),
    sql<string>`(SELECT s.xmin::text FROM payments s WHERE s.id = p.id)`.as('read_version'),
  ]);
}

/** A payments row locked by a lock* statement: its version as locked, and as the statement's snapshot has it. */
type LockedPaymentRow = PaymentRow & { locked_version: string; read_version: string };

/**
 * An array parameter as `unnest` takes it, from a sub-select: the planner then estimates its length alike
 * whatever its values, and keeps one generic plan for the statement (see writeAll).
 */
function arrayParam<T>(values: readonly T[], type: string): RawBuilder<T[]> {
  return sql<T[]>`(SELECT ${values}::${sql.raw(type)}[])`;
}

/**
 * `unnest(arrays…) AS alias (columns…)`: a table of one row per index of the arrays, a column per key of
 * `arrays`; `columns` lists them, for the INSERT that takes all of them.
 */
function unnested<A extends string, Row extends Record<string, unknown>>(
  alias: A,
  arrays: { [K in keyof Row]: RawBuilder<Row[K][]> },
) {
  const columns = Object.keys(arrays) as (keyof Row & string)[];
  const table = sql<Row>`unnest(${sql.join(Object.values(arrays))})`.as<A>(
    sql`${sql.id(alias)} (${sql.join(columns.map((column) => sql.id(column)))})`,
  );
  return { table, columns };
}

/** The columns of new payments, one array per column, for `unnest`. */
function paymentColumns(payments: readonly Payment[]) {
  return {
    id: payments.map((p) => p.id),
    merchantId: payments.map((p) => p.merchantId),
    livemode: payments.map((p) => p.livemode),
    status: payments.map((p) => p.status),
    amount: payments.map((p) => p.amount),
    currency: payments.map((p) => p.currency),
    mode: payments.map((p) => p.mode),
    feeRateBps: payments.map((p) => p.feeRule.rateBps),
    feeFixedAmount: payments.map((p) => p.feeRule.fixedAmount),
    merchantName: payments.map((p) => p.merchantName),
    feeAmount: payments.map((p) => p.feeAmount),
    netAmount: payments.map((p) => p.netAmount),
    reference: payments.map((p) => p.reference),
    description: payments.map((p) => p.description),
    returnUrl: payments.map((p) => p.returnUrl),
    cancelUrl: payments.map((p) => p.cancelUrl),
    checkoutUrl: payments.map((p) => p.checkoutUrl),
    metadata: payments.map((p) => JSON.stringify(p.metadata)),
    expiresAt: payments.map((p) => p.expiresAt),
    createdAt: payments.map((p) => p.createdAt),
    updatedAt: payments.map((p) => p.updatedAt),
  };
}

/** New attempts of the payments `owners` (one owner per attempt) as a table, for an INSERT into payment_attempts. */
function newAttemptsUnnested(owners: readonly string[], n: ReturnType<typeof newAttemptColumns>) {
  return unnested('n', {
    payment_id: arrayParam(owners, 'text'),
    id: arrayParam(n.id, 'text'),
    sequence: arrayParam(n.sequence, 'int'),
    tx_id: arrayParam(n.txId, 'text'),
    status: arrayParam(n.status, 'attempt_status'),
    payer_alias_sealed: arrayParam(n.payerAliasSealed, 'text'),
    payer_alias_masked: arrayParam(n.payerAliasMasked, 'text'),
    duplicate: arrayParam(n.duplicate, 'boolean'),
    failure_code: arrayParam(n.failureCode, 'text'),
    refunds: arrayParam(n.refunds, 'jsonb'),
    reason_code: arrayParam(n.reasonCode, 'text'),
    end_to_end_id: arrayParam(n.endToEndId, 'text'),
    dispatch_after: arrayParam(n.dispatchAfter, 'timestamptz'),
    created_at: arrayParam(n.createdAt, 'timestamptz'),
    updated_at: arrayParam(n.updatedAt, 'timestamptz'),
  });
}

function attemptChanged(before: Attempt, after: Attempt): boolean {
  return (
    before.status !== after.status ||
    before.duplicate !== after.duplicate ||
    before.failureCode !== after.failureCode ||
    refundsColumnOf(before) !== refundsColumnOf(after) ||
    before.reasonCode !== after.reasonCode ||
    before.endToEndId !== after.endToEndId ||
    before.dispatchAfter?.getTime() !== after.dispatchAfter?.getTime()
  );
}
