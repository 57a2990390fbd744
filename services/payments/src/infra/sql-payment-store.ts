import { PAYMENT_EVENTS } from '@sika/contracts';
import { firstOfEachKey, sql, SqlFragment, StatementBatcher, type SecretBox } from '@sika/platform';
import type { CommittedPayment, PaymentListQuery, PaymentsAudit, PaymentStore, Scope } from '../app/ports';
import type { Outcome } from '../domain/lifecycle';
import type { Attempt, Payment, RefundStatus } from '../domain/payment';
import type { Reader, Tx } from './database';
import { outboxRows, type OutboxEvent } from '@sika/messaging';
import { outcomeMessages } from './payment-events';
import {
  attemptChangeColumns,
  newAttemptColumns,
  PAYMENT_WITH_ATTEMPTS,
  paymentFromRow,
  refundsColumnOf,
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

  /** `pool` serves the statements of insertAlone and recordIfUnchanged. */
  constructor(
    private readonly aliases: SecretBox,
    pool: Reader,
  ) {
    this.insertsAlone = new StatementBatcher((payments) => this.insertAll(pool, payments), {
      maxBatchSize: MAX_BATCH,
    });
    this.recordsIfUnchanged = new StatementBatcher((changes) => this.writeAll(pool, changes), {
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
    const column = <T>(of: (payment: Payment) => T): T[] => payments.map(of);
    const attempts = payments.flatMap((payment) => payment.attempts);
    const owners = payments.flatMap((payment) => payment.attempts.map(() => payment.id));
    const a = newAttemptColumns(attempts, this.aliases);
    const rows = await db.$queryRaw<{ id: string; version: string }[]>`
      WITH payment AS (
        INSERT INTO payments (id, merchant_id, livemode, status, amount, currency, mode, fee_rate_bps,
          fee_fixed_amount, merchant_name, fee_amount, net_amount, reference, description, return_url,
          cancel_url, checkout_url, metadata, expires_at, created_at, updated_at)
        SELECT * FROM unnest((SELECT ${column((p) => p.id)}::text[]), (SELECT ${column((p) => p.merchantId)}::text[]),
          (SELECT ${column((p) => p.livemode)}::boolean[]), (SELECT ${column((p) => p.status)}::payment_status[]),
          (SELECT ${column((p) => p.amount.toString())}::bigint[]), (SELECT ${column((p) => p.currency)}::text[]),
          (SELECT ${column((p) => p.mode)}::payment_mode[]), (SELECT ${column((p) => p.feeRule.rateBps)}::int[]),
          (SELECT ${column((p) => p.feeRule.fixedAmount.toString())}::bigint[]),
          (SELECT ${column((p) => p.merchantName)}::text[]),
          (SELECT ${column((p) => p.feeAmount?.toString() ?? null)}::bigint[]),
          (SELECT ${column((p) => p.netAmount?.toString() ?? null)}::bigint[]),
          (SELECT ${column((p) => p.reference)}::text[]), (SELECT ${column((p) => p.description)}::text[]),
          (SELECT ${column((p) => p.returnUrl)}::text[]), (SELECT ${column((p) => p.cancelUrl)}::text[]),
          (SELECT ${column((p) => p.checkoutUrl)}::text[]),
          (SELECT ${column((p) => JSON.stringify(p.metadata))}::jsonb[]),
          (SELECT ${column((p) => p.expiresAt)}::timestamptz[]), (SELECT ${column((p) => p.createdAt)}::timestamptz[]),
          (SELECT ${column((p) => p.updatedAt)}::timestamptz[]))
        RETURNING id, xmin),
      attempts AS (
        INSERT INTO payment_attempts (payment_id, id, sequence, tx_id, status, payer_alias_sealed,
          payer_alias_masked, duplicate, failure_code, refunds, reason_code, end_to_end_id, dispatch_after,
          created_at, updated_at)
        SELECT * FROM unnest((SELECT ${owners}::text[]), (SELECT ${a.id}::text[]), (SELECT ${a.sequence}::int[]),
          (SELECT ${a.txId}::text[]), (SELECT ${a.status}::attempt_status[]),
          (SELECT ${a.payerAliasSealed}::text[]), (SELECT ${a.payerAliasMasked}::text[]),
          (SELECT ${a.duplicate}::boolean[]), (SELECT ${a.failureCode}::text[]),
          (SELECT ${a.refunds}::jsonb[]), (SELECT ${a.reasonCode}::text[]),
          (SELECT ${a.endToEndId}::text[]), (SELECT ${a.dispatchAfter}::timestamptz[]),
          (SELECT ${a.createdAt}::timestamptz[]), (SELECT ${a.updatedAt}::timestamptz[])))
      SELECT id, xmin::text AS version FROM payment`;
    const versions = new Map(rows.map((row) => [row.id, row.version]));
    return payments.map((payment) => {
      const version = versions.get(payment.id);
      if (version === undefined) throw new Error(`payment ${payment.id} was not inserted`);
      return version;
    });
  }

  async findById(db: Reader, id: string): Promise<Payment | null> {
    const [row] = await db.$queryRaw<PaymentRow[]>(
      ...sql`
      SELECT ${PAYMENT_WITH_ATTEMPTS}
      FROM payments p WHERE p.id = ${id}`,
    );
    return row === undefined ? null : paymentFromRow(row, this.aliases);
  }

  /** Another merchant's or mode's payment is null, exactly as one that does not exist. */
  async findInScope(db: Reader, scope: Scope, id: string): Promise<Payment | null> {
    const [row] = await db.$queryRaw<PaymentRow[]>(
      ...sql`
      SELECT ${PAYMENT_WITH_ATTEMPTS}
      FROM payments p
      WHERE p.id = ${id} AND p.merchant_id = ${scope.merchantId} AND p.livemode = ${scope.livemode}`,
    );
    return row === undefined ? null : paymentFromRow(row, this.aliases);
  }

  async findByAttemptId(db: Reader, attemptId: string): Promise<Payment | null> {
    const [row] = await db.$queryRaw<PaymentRow[]>(
      ...sql`
      SELECT ${PAYMENT_WITH_ATTEMPTS}
      FROM payments p WHERE p.id = (SELECT payment_id FROM payment_attempts WHERE id = ${attemptId})`,
    );
    return row === undefined ? null : paymentFromRow(row, this.aliases);
  }

  /** Locks the payment row until the end of the transaction and reads it with its attempts. */
  async lockById(tx: Tx, id: string): Promise<Payment | null> {
    const [row] = await tx.$queryRaw<LockedPaymentRow[]>(
      ...sql`
      SELECT ${PAYMENT_WITH_ATTEMPTS}, ${LOCKED_VERSIONS}
      FROM payments p WHERE p.id = ${id}
      FOR UPDATE OF p`,
    );
    return this.readLocked(tx, row);
  }

  async lockInScope(tx: Tx, scope: Scope, id: string): Promise<Payment | null> {
    const [row] = await tx.$queryRaw<LockedPaymentRow[]>(
      ...sql`
      SELECT ${PAYMENT_WITH_ATTEMPTS}, ${LOCKED_VERSIONS}
      FROM payments p
      WHERE p.id = ${id} AND p.merchant_id = ${scope.merchantId} AND p.livemode = ${scope.livemode}
      FOR UPDATE OF p`,
    );
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
    const rows = await tx.$queryRaw<LockedPaymentRow[]>(
      ...sql`
      SELECT ${PAYMENT_WITH_ATTEMPTS}, ${LOCKED_VERSIONS}
      FROM payments p
      WHERE p.id IN (SELECT payment_id FROM payment_attempts
                     WHERE tx_id IN (SELECT unnest((SELECT ${txIds}::text[]))))
      ORDER BY p.id
      FOR UPDATE OF p`,
    );
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
    const succeeded = await db.$queryRaw<{ id: string }[]>`
      SELECT id FROM payments WHERE livemode = ${livemode} AND status = 'succeeded'`;
    // Every transfer owed back, and every attempt that should owe one but records none (refund_status null).
    const owed = await db.$queryRaw<
      { payment_id: string; tx_id: string; end_to_end_id: string | null; refund_status: string | null }[]
    >`
      SELECT a.payment_id, a.tx_id, r.refund->>'end_to_end_id' AS end_to_end_id,
             r.refund->>'status' AS refund_status
      FROM payment_attempts a JOIN payments p ON p.id = a.payment_id
      LEFT JOIN LATERAL jsonb_array_elements(a.refunds) AS r (refund) ON true
      WHERE p.livemode = ${livemode}
        AND (a.refunds <> '[]'
          OR a.duplicate
          OR a.failure_code IN ('amount_mismatch', 'payee_mismatch')
          OR (a.status = 'succeeded' AND p.status <> 'succeeded'))`;
    const events = await db.$queryRaw<{ id: string }[]>`
      SELECT id FROM outbox WHERE routing_key LIKE ${PAYMENT_EVENTS.routingKey('payment.%')}`;
    return {
      paymentEventMessageIds: events.map((row) => row.id),
      succeededPaymentIds: succeeded.map((row) => row.id),
      owedRefunds: owed.map((row) => ({
        paymentId: row.payment_id,
        txId: row.tx_id,
        endToEndId: row.end_to_end_id,
        refundStatus: row.refund_status as RefundStatus | null,
      })),
    };
  }

  async findSucceeded(db: Reader, paymentIds: readonly string[]): Promise<string[]> {
    const rows = await db.$queryRaw<{ id: string }[]>`
      SELECT id FROM payments WHERE id = ANY (${paymentIds}::text[]) AND status = 'succeeded'`;
    return rows.map((row) => row.id);
  }

  /** The outcome's payment and the messages announcing it (see outcomeMessages), in one statement. */
  async record(tx: Tx, before: Payment, outcome: Outcome, now: Date): Promise<void> {
    await this.recordAll(tx, [{ before, outcome }], now);
  }

  /** record of many payments (each once) in one statement. */
  async recordAll(
    tx: Tx,
    records: readonly { before: Payment; outcome: Outcome }[],
    now: Date,
  ): Promise<void> {
    const changes = records.map(({ before, outcome }) => ({
      before,
      after: outcome.payment,
      messages: outcomeMessages(outcome, now),
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
    const column = <T>(of: (change: PaymentChange) => T): T[] => written.map(of);
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
    // Each array is unnested from a sub-select so the planner estimates its length alike with or without the
    // values. Given them as constants (a custom plan), it knew most are empty and, on tables without
    // statistics, kept planning this statement on every call, which cost more than running it
    // (pg_stat_statements with track_planning); now each connection plans it once (a generic plan).
    const rows = await db.$queryRaw<{ id: string; version: string }[]>`
      WITH payment AS (
        UPDATE payments p SET status = u.status, fee_amount = u.fee_amount, net_amount = u.net_amount,
          updated_at = u.updated_at
        FROM unnest((SELECT ${column((w) => w.after.id)}::text[]),
          (SELECT ${column((w) => w.after.status)}::payment_status[]),
          (SELECT ${column((w) => w.after.feeAmount?.toString() ?? null)}::bigint[]),
          (SELECT ${column((w) => w.after.netAmount?.toString() ?? null)}::bigint[]),
          (SELECT ${column((w) => w.after.updatedAt)}::timestamptz[]),
          (SELECT ${column((w) => w.expectedVersion)}::text[]))
          AS u (id, status, fee_amount, net_amount, updated_at, expected_version)
        WHERE p.id = u.id AND (u.expected_version IS NULL OR p.xmin::text = u.expected_version)
        RETURNING p.id, p.xmin),
      added AS (
        INSERT INTO payment_attempts (payment_id, id, sequence, tx_id, status, payer_alias_sealed,
          payer_alias_masked, duplicate, failure_code, refunds, reason_code, end_to_end_id, dispatch_after,
          created_at, updated_at)
        SELECT * FROM unnest((SELECT ${added.map((each) => each.paymentId)}::text[]), (SELECT ${n.id}::text[]),
          (SELECT ${n.sequence}::int[]), (SELECT ${n.txId}::text[]), (SELECT ${n.status}::attempt_status[]),
          (SELECT ${n.payerAliasSealed}::text[]), (SELECT ${n.payerAliasMasked}::text[]),
          (SELECT ${n.duplicate}::boolean[]), (SELECT ${n.failureCode}::text[]),
          (SELECT ${n.refunds}::jsonb[]), (SELECT ${n.reasonCode}::text[]),
          (SELECT ${n.endToEndId}::text[]), (SELECT ${n.dispatchAfter}::timestamptz[]),
          (SELECT ${n.createdAt}::timestamptz[]), (SELECT ${n.updatedAt}::timestamptz[]))
          AS n (payment_id, id, sequence, tx_id, status, payer_alias_sealed, payer_alias_masked, duplicate,
            failure_code, refunds, reason_code, end_to_end_id, dispatch_after, created_at, updated_at)
        WHERE n.payment_id IN (SELECT id FROM payment)),
      messages AS (
        INSERT INTO outbox (id, routing_key, type, payload, headers, created_at)
        SELECT e.id, e.routing_key, e.type, e.payload, e.headers, clock_timestamp() + e.n * interval '1 microsecond'
          FROM unnest((SELECT ${messageOwners}::text[]), (SELECT ${o.ids}::text[]),
            (SELECT ${o.routingKeys}::text[]), (SELECT ${o.types}::text[]), (SELECT ${o.payloads}::bytea[]),
            (SELECT ${o.headers}::jsonb[])) WITH ORDINALITY AS e (payment_id, id, routing_key, type, payload, headers, n)
         WHERE e.payment_id IN (SELECT id FROM payment)),
      changed AS (
        UPDATE payment_attempts a
        SET status = c.status, duplicate = c.duplicate, failure_code = c.failure_code,
          refunds = c.refunds, reason_code = c.reason_code, end_to_end_id = c.end_to_end_id,
          dispatch_after = c.dispatch_after, updated_at = c.updated_at
        FROM unnest((SELECT ${changed.map((each) => each.paymentId)}::text[]),
          (SELECT ${c.id}::text[]), (SELECT ${c.status}::attempt_status[]),
          (SELECT ${c.duplicate}::boolean[]), (SELECT ${c.failureCode}::text[]),
          (SELECT ${c.refunds}::jsonb[]), (SELECT ${c.reasonCode}::text[]),
          (SELECT ${c.endToEndId}::text[]), (SELECT ${c.dispatchAfter}::timestamptz[]),
          (SELECT ${c.updatedAt}::timestamptz[]))
          AS c(payment_id, id, status, duplicate, failure_code, refunds, reason_code, end_to_end_id,
            dispatch_after, updated_at)
        WHERE a.id = c.id AND a.payment_id = c.payment_id AND c.payment_id IN (SELECT id FROM payment))
      SELECT id, xmin::text AS version FROM payment`;
    const versions = new Map(rows.map((row) => [row.id, row.version]));
    const answers = new Map(written.map((change) => [change, versions.get(change.after.id) ?? null]));
    return changes.map((change) => answers.get(change) ?? null);
  }

  /** Most recent first, keyset-paginated on (created_at, id); one row more than asked tells has_more. */
  async list(db: Reader, query: PaymentListQuery): Promise<{ payments: Payment[]; hasMore: boolean }> {
    const { scope, after } = query;
    const afterCreatedAt = after?.createdAt ?? null;
    const afterId = after?.id ?? null;
    const rows = await db.$queryRaw<PaymentRow[]>(
      ...sql`
      SELECT ${PAYMENT_WITH_ATTEMPTS}
      FROM payments p
      WHERE p.merchant_id = ${scope.merchantId} AND p.livemode = ${scope.livemode}
        AND (${query.status}::text IS NULL OR p.status = ${query.status}::payment_status)
        AND (${query.reference}::text IS NULL OR p.reference = ${query.reference})
        AND (${query.createdFrom}::timestamptz IS NULL OR p.created_at >= ${query.createdFrom}::timestamptz)
        AND (${query.createdTo}::timestamptz IS NULL OR p.created_at < ${query.createdTo}::timestamptz)
        AND (${afterCreatedAt}::timestamptz IS NULL
          OR p.created_at < ${afterCreatedAt}::timestamptz
          OR (p.created_at = ${afterCreatedAt}::timestamptz AND p.id < ${afterId}))
      ORDER BY p.created_at DESC, p.id DESC
      LIMIT ${query.limit + 1}`,
    );
    return {
      payments: rows.slice(0, query.limit).map((row) => paymentFromRow(row, this.aliases)),
      hasMore: rows.length > query.limit,
    };
  }

  /**
   * Locks up to `limit` open payments (created, request_sent, accepted_deferred: spec §3.2) past their
   * deadline, skipping those another replica (or a callback) holds: several schedulers share the work
   * without waiting on each other.
   */
  async delete(tx: Tx, id: string): Promise<void> {
    await tx.$executeRaw`DELETE FROM payment_attempts WHERE payment_id = ${id}`;
    await tx.$executeRaw`DELETE FROM payments WHERE id = ${id}`;
  }

  async moveDeadline(tx: Tx, id: string, expiresAt: Date): Promise<void> {
    await tx.$executeRaw`UPDATE payments SET expires_at = ${expiresAt} WHERE id = ${id}`;
  }

  async lockExpired(tx: Tx, now: Date, since: Date | null, limit: number): Promise<Payment[]> {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM payments
      WHERE status IN ('created', 'request_sent', 'accepted_deferred') AND expires_at <= ${now}
        AND expires_at > COALESCE(${since}::timestamptz, '-infinity')
      ORDER BY expires_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED`;
    if (locked.length === 0) return [];
    const rows = await tx.$queryRaw<PaymentRow[]>(
      ...sql`
      SELECT ${PAYMENT_WITH_ATTEMPTS}
      FROM payments p WHERE p.id = ANY(${locked.map((row) => row.id)}::text[])
      ORDER BY p.expires_at`,
    );
    return rows.map((row) => paymentFromRow(row, this.aliases));
  }

  /**
   * Claims pending attempts due for (re)sending by pushing their dispatch_after to `leaseUntil`: another
   * sweeper skips them until then, and if this one dies they become due again.
   */
  async claimDueAttempts(db: Reader, now: Date, leaseUntil: Date, limit: number): Promise<string[]> {
    const rows = await db.$queryRaw<{ id: string }[]>`
      UPDATE payment_attempts SET dispatch_after = ${leaseUntil}
      WHERE id IN (
        SELECT id FROM payment_attempts
        WHERE status = 'pending' AND dispatch_after <= ${now}
        ORDER BY dispatch_after
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING id`;
    return rows.map((row) => row.id);
  }

  /**
   * Erases the sealed alias of up to `limit` attempts of payments final (succeeded, declined, expired,
   * canceled, failed) and unchanged since `finalBefore`: the masked alias stays. Returns how many.
   */
  async erasePayerAliases(db: Reader, finalBefore: Date, limit: number): Promise<number> {
    return db.$executeRaw`
      UPDATE payment_attempts SET payer_alias_sealed = NULL
      WHERE id IN (
        SELECT a.id FROM payment_attempts a JOIN payments p ON p.id = a.payment_id
        WHERE a.payer_alias_sealed IS NOT NULL
          AND p.status IN ('succeeded', 'declined', 'expired', 'canceled', 'failed')
          AND p.updated_at <= ${finalBefore}
        LIMIT ${limit}
        FOR UPDATE OF a SKIP LOCKED)`;
  }
}

/** A payments row locked by a lock* statement: its version as locked, and as the statement's snapshot has it. */
interface LockedPaymentRow extends PaymentRow {
  locked_version: string;
  read_version: string;
}

/** A locked PaymentRow's versions: as locked, and as the statement's snapshot read it (readLocked). */
const LOCKED_VERSIONS = new SqlFragment(
  'p.xmin::text AS locked_version, (SELECT s.xmin::text FROM payments s WHERE s.id = p.id) AS read_version',
);

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
