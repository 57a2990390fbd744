import { PAYMENT_EVENTS } from '@sika/contracts';
import type { SecretBox } from '@sika/platform';
import type { PaymentListQuery, PaymentsAudit, PaymentStore, Scope } from '../app/ports';
import type { Outcome } from '../domain/lifecycle';
import type { Attempt, Payment, RefundStatus } from '../domain/payment';
import type { Prisma } from '../generated/prisma/client';
import type { Reader, Tx } from './database';
import { writePaymentEvents, writeRefundRequest } from './payment-events';
import { WITH_ATTEMPTS, attemptFields, attemptToRow, paymentFromRow, paymentToRow } from './payment-rows';

/**
 * Payments and their attempts in the `payments` schema. Changes happen under a row lock on the payment
 * (lock* methods, inside a transaction), so concurrent updates of one payment (a scheme callback, a
 * cancellation, the expiry scheduler) apply one after the other on the latest state. Payer aliases are
 * sealed with `aliases` when written and opened when read.
 */
export class PaymentRepository implements PaymentStore {
  constructor(private readonly aliases: SecretBox) {}

  async insert(tx: Tx, payment: Payment): Promise<void> {
    await tx.payment.create({ data: paymentToRow(payment) });
    if (payment.attempts.length > 0) {
      await tx.paymentAttempt.createMany({
        data: payment.attempts.map((attempt) => attemptToRow(payment.id, attempt, this.aliases)),
      });
    }
  }

  async findById(db: Reader, id: string): Promise<Payment | null> {
    const row = await db.payment.findUnique({ where: { id }, include: WITH_ATTEMPTS });
    return row === null ? null : paymentFromRow(row, this.aliases);
  }

  /** Another merchant's or mode's payment is null, exactly as one that does not exist. */
  async findInScope(db: Reader, scope: Scope, id: string): Promise<Payment | null> {
    const row = await db.payment.findFirst({
      where: { id, merchantId: scope.merchantId, livemode: scope.livemode },
      include: WITH_ATTEMPTS,
    });
    return row === null ? null : paymentFromRow(row, this.aliases);
  }

  /** Locks the payment row until the end of the transaction, then reads it with its attempts. */
  async lockById(tx: Tx, id: string): Promise<Payment | null> {
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM payments WHERE id = ${id} FOR UPDATE`;
    return locked.length === 0 ? null : this.findById(tx, id);
  }

  async lockInScope(tx: Tx, scope: Scope, id: string): Promise<Payment | null> {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM payments
      WHERE id = ${id} AND merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}
      FOR UPDATE`;
    return locked.length === 0 ? null : this.findById(tx, id);
  }

  async findAttemptOwner(
    db: Reader,
    where: { attemptId: string } | { txId: string },
  ): Promise<string | null> {
    const row = await db.paymentAttempt.findUnique({
      where: 'txId' in where ? { txId: where.txId } : { id: where.attemptId },
      select: { paymentId: true },
    });
    return row?.paymentId ?? null;
  }

  async lockByTxId(tx: Tx, txId: string): Promise<{ payment: Payment; attempt: Attempt }> {
    const paymentId = await this.findAttemptOwner(tx, { txId });
    const payment = paymentId === null ? null : await this.lockById(tx, paymentId);
    const attempt = payment?.attempts.find((each) => each.txId === txId);
    if (payment === null || attempt === undefined) throw new Error(`no attempt has tx_id ${txId}`);
    return { payment, attempt };
  }

  async audit(db: Reader, livemode: boolean): Promise<PaymentsAudit> {
    const succeeded = await db.payment.findMany({
      where: { livemode, status: 'succeeded' },
      select: { id: true },
    });
    const owed = await db.paymentAttempt.findMany({
      where: {
        payment: { livemode },
        OR: [
          { duplicate: true },
          { refundStatus: { not: null } },
          { failureCode: { in: ['amount_mismatch', 'payee_mismatch'] } },
          { status: 'succeeded', payment: { status: { not: 'succeeded' } } },
        ],
      },
      select: { paymentId: true, txId: true, duplicate: true, refundStatus: true },
    });
    const events = await db.$queryRaw<{ id: string }[]>`
      SELECT id FROM outbox WHERE routing_key LIKE ${PAYMENT_EVENTS.routingKey('payment.%')}`;
    return {
      paymentEventMessageIds: events.map((row) => row.id),
      succeededPaymentIds: succeeded.map((row) => row.id),
      owedAttempts: owed.map((row) => ({ ...row, refundStatus: row.refundStatus as RefundStatus | null })),
    };
  }

  async record(tx: Tx, before: Payment, outcome: Outcome, now: Date): Promise<void> {
    await this.save(tx, before, outcome.payment);
    await writePaymentEvents(tx, outcome.changes, now);
    if (outcome.refund !== null) await writeRefundRequest(tx, outcome.payment.livemode, outcome.refund);
  }

  async save(tx: Tx, before: Payment, after: Payment): Promise<void> {
    await tx.payment.update({
      where: { id: after.id },
      data: {
        status: after.status,
        feeAmount: after.feeAmount,
        netAmount: after.netAmount,
        updatedAt: after.updatedAt,
      },
    });
    const previous = new Map(before.attempts.map((attempt) => [attempt.id, attempt]));
    for (const attempt of after.attempts) {
      const earlier = previous.get(attempt.id);
      if (earlier === undefined) {
        await tx.paymentAttempt.create({ data: attemptToRow(after.id, attempt, this.aliases) });
      } else if (attemptChanged(earlier, attempt)) {
        await tx.paymentAttempt.update({ where: { id: attempt.id }, data: attemptFields(attempt) });
      }
    }
  }

  /** Most recent first, keyset-paginated on (created_at, id); one row more than asked tells has_more. */
  async list(db: Reader, query: PaymentListQuery): Promise<{ payments: Payment[]; hasMore: boolean }> {
    const { scope, after } = query;
    const createdAt: Prisma.DateTimeFilter = {};
    if (query.createdFrom !== null) createdAt.gte = query.createdFrom;
    if (query.createdTo !== null) createdAt.lt = query.createdTo;
    const rows = await db.payment.findMany({
      where: {
        merchantId: scope.merchantId,
        livemode: scope.livemode,
        ...(query.status === null ? {} : { status: query.status }),
        ...(query.reference === null ? {} : { reference: query.reference }),
        createdAt,
        ...(after === null
          ? {}
          : {
              OR: [
                { createdAt: { lt: after.createdAt } },
                { createdAt: after.createdAt, id: { lt: after.id } },
              ],
            }),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: query.limit + 1,
      include: WITH_ATTEMPTS,
    });
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
  async lockExpired(tx: Tx, now: Date, limit: number): Promise<Payment[]> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM payments
      WHERE status IN ('created', 'request_sent', 'accepted_deferred') AND expires_at <= ${now}
      ORDER BY expires_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED`;
    const payments = await Promise.all(rows.map((row) => this.findById(tx, row.id)));
    return payments.filter((payment): payment is Payment => payment !== null);
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
   * Seals up to `limit` aliases still stored in clear (recorded before aliases were sealed) and clears the
   * clear column, skipping rows another replica holds; returns how many.
   */
  async sealClearAliases(tx: Tx, limit: number): Promise<number> {
    const rows = await tx.$queryRaw<{ id: string; payer_alias: string }[]>`
      SELECT id, payer_alias FROM payment_attempts
      WHERE payer_alias IS NOT NULL
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED`;
    for (const row of rows) {
      await tx.paymentAttempt.update({
        where: { id: row.id },
        data: { payerAliasSealed: this.aliases.seal(row.payer_alias, row.id), payerAliasClear: null },
      });
    }
    return rows.length;
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

function attemptChanged(before: Attempt, after: Attempt): boolean {
  return (
    before.status !== after.status ||
    before.duplicate !== after.duplicate ||
    before.failureCode !== after.failureCode ||
    before.refundStatus !== after.refundStatus ||
    before.reasonCode !== after.reasonCode ||
    before.endToEndId !== after.endToEndId ||
    before.dispatchAfter?.getTime() !== after.dispatchAfter?.getTime()
  );
}
