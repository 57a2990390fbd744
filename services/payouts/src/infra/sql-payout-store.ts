import { sql, type Insertable, type Selectable } from 'kysely';
import { outboxMessage, PAYOUT_EVENTS, PAYOUT_TRANSFER_REQUESTS } from '@sika/contracts';
import { enqueue, modeHeader } from '@sika/messaging';
import type { IdempotencyKeyStore, IdempotentRequest } from '@sika/platform';
import type { PayoutFailureCode } from '@sika/rules';
import type { PayoutListQuery, PayoutsAudit, PayoutStore, Scope, Transaction } from '../app/ports';
import { eventTypeOf, isVisible, type Payout, type VisiblePayout } from '../domain/payout';
import type { DB } from '../generated/database';
import { dayOf, type PayoutsDatabase, type Tx } from './database';
import { payoutToProto } from './payout-proto';

type PayoutRow = Selectable<DB['payouts']>;

function toPayout(row: PayoutRow): Payout {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    livemode: row.livemode,
    status: row.status,
    method: row.method,
    requestedAmount: row.requested_amount,
    amount: row.amount,
    currency: row.currency,
    destination: {
      aliasType: row.alias_type,
      alias: row.alias,
      aliasMasked: row.alias_masked,
      holderName: row.holder_name,
    },
    failureCode: row.failure_code as PayoutFailureCode | null,
    reasonCode: row.reason_code,
    automaticFor: row.automatic_for === null ? null : dayOf(row.automatic_for),
    createdAt: row.created_at,
    paidAt: row.paid_at,
    failedAt: row.failed_at,
  };
}

function visible(row: PayoutRow | undefined): VisiblePayout | undefined {
  const payout = row && toPayout(row);
  return payout && isVisible(payout) ? payout : undefined;
}

function rowOf(payout: Payout, leaseUntil: Date): Insertable<DB['payouts']> {
  const { destination } = payout;
  return {
    id: payout.id,
    merchant_id: payout.merchantId,
    livemode: payout.livemode,
    status: payout.status,
    method: payout.method,
    requested_amount: payout.requestedAmount,
    amount: payout.amount,
    currency: payout.currency,
    alias_type: destination.aliasType,
    alias: destination.alias,
    alias_masked: destination.aliasMasked,
    holder_name: destination.holderName,
    failure_code: payout.failureCode,
    reason_code: payout.reasonCode,
    automatic_for: payout.automaticFor,
    reserve_lease_until: leaseUntil,
    created_at: payout.createdAt,
    paid_at: payout.paidAt,
    failed_at: payout.failedAt,
  };
}

const VISIBLE_STATUSES = ['pending', 'paid', 'failed'] as const;

export class SqlPayoutStore implements PayoutStore {
  /** `eventsCommitted` wakes the outbox relay after this store commits an outbox message of its own. */
  constructor(
    private readonly db: PayoutsDatabase,
    private readonly keys: IdempotencyKeyStore,
    private readonly eventsCommitted: () => void,
  ) {}

  recordRequested(
    request: IdempotentRequest,
    payout: Payout,
    leaseUntil: Date,
  ): Promise<{ kind: 'recorded' } | { kind: 'replay'; payout: Payout }> {
    return this.db.transact(async (tx) => {
      const replayedId = await this.keys.claim(tx, request);
      if (replayedId !== null) {
        const replayed = await tx
          .selectFrom('payouts')
          .selectAll()
          .where('id', '=', replayedId)
          .executeTakeFirst();
        if (replayed) return { kind: 'replay' as const, payout: toPayout(replayed) };
        await this.keys.forget(tx, request.scope);
      }
      await tx.insertInto('payouts').values(rowOf(payout, leaseUntil)).execute();
      await this.keys.remember(tx, request, payout.id);
      return { kind: 'recorded' as const };
    });
  }

  async recordAutomatic(payout: Payout, leaseUntil: Date): Promise<boolean> {
    const { numInsertedOrUpdatedRows } = await this.db
      .insertInto('payouts')
      .values(rowOf(payout, leaseUntil))
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirstOrThrow();
    return numInsertedOrUpdatedRows === 1n;
  }

  async takeOverReservation(payoutId: string, leaseUntil: Date, now: Date): Promise<Payout | undefined> {
    const row = await this.db
      .updateTable('payouts')
      .set({ reserve_lease_until: leaseUntil })
      .where('id', '=', payoutId)
      .where('status', '=', 'reserving')
      .where('reserve_lease_until', '<=', now)
      .returningAll()
      .executeTakeFirst();
    return row && toPayout(row);
  }

  async abandonedReservations(now: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('payouts')
      .select('id')
      .where('status', '=', 'reserving')
      .where('reserve_lease_until', '<=', now)
      .orderBy('reserve_lease_until', 'asc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  async markReserved(
    payoutId: string,
    amount: bigint,
    reason: (payout: Payout) => string,
  ): Promise<Payout | undefined> {
    const reserved = await this.db.transact(async (tx) => {
      // `refused` too: a reservation the ledger made after all (a slow first request whose payout the sweeper
      // saw refused) must not be stranded without its payout.
      const row = await tx
        .updateTable('payouts')
        .set({ status: 'pending', amount, reserve_lease_until: null })
        .where('id', '=', payoutId)
        .where('status', 'in', ['reserving', 'refused'])
        .returningAll()
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const payout = toPayout(row);
      const request = {
        livemode: payout.livemode,
        payoutId: payout.id,
        payeeAlias: payout.destination.alias,
        amount,
        reason: reason(payout),
      };
      await enqueue(
        tx,
        outboxMessage(PAYOUT_TRANSFER_REQUESTS, request, PAYOUT_TRANSFER_REQUESTS.routingKey),
      );
      return payout;
    });
    if (reserved) this.eventsCommitted();
    return reserved;
  }

  async markRefused(payoutId: string): Promise<void> {
    await this.db.transact(async (tx) => {
      await tx
        .updateTable('payouts')
        .set({ status: 'refused', reserve_lease_until: null })
        .where('id', '=', payoutId)
        .where('status', '=', 'reserving')
        .execute();
      await this.keys.forgetResource(tx, payoutId);
    });
  }

  async findInScope(scope: Scope, payoutId: string): Promise<VisiblePayout | undefined> {
    return visible(
      await this.db
        .selectFrom('payouts')
        .selectAll()
        .where('id', '=', payoutId)
        .where('merchant_id', '=', scope.merchantId)
        .where('livemode', '=', scope.livemode)
        .executeTakeFirst(),
    );
  }

  async list(query: PayoutListQuery): Promise<{ payouts: VisiblePayout[]; hasMore: boolean }> {
    const { scope, startingAfter } = query;
    const inScope = this.db
      .selectFrom('payouts')
      .where('merchant_id', '=', scope.merchantId)
      .where('livemode', '=', scope.livemode);
    const cursor =
      startingAfter === undefined
        ? undefined
        : await inScope.select(['id', 'created_at']).where('id', '=', startingAfter).executeTakeFirst();
    let rows =
      query.status === undefined
        ? inScope.selectAll().where('status', 'in', [...VISIBLE_STATUSES])
        : inScope.selectAll().where('status', '=', query.status);
    if (query.createdFrom) rows = rows.where('created_at', '>=', query.createdFrom);
    if (query.createdTo) rows = rows.where('created_at', '<', query.createdTo);
    if (cursor) {
      rows = rows.where((eb) =>
        eb.or([
          eb('created_at', '<', cursor.created_at),
          eb.and([eb('created_at', '=', cursor.created_at), eb('id', '<', cursor.id)]),
        ]),
      );
    }
    const page = await rows
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.take + 1)
      .execute();
    const payouts = page.slice(0, query.take).map(toPayout).filter(isVisible);
    return { payouts, hasMore: page.length > query.take };
  }

  async lockById(tx: Transaction, payoutId: string): Promise<Payout | undefined> {
    const row = await (tx as Tx)
      .selectFrom('payouts')
      .selectAll()
      .where('id', '=', payoutId)
      .forUpdate()
      .executeTakeFirst();
    return row && toPayout(row);
  }

  async recordSettled(tx: Transaction, payout: VisiblePayout, occurredAt: Date): Promise<void> {
    const client = tx as Tx;
    await client
      .updateTable('payouts')
      .set({
        status: payout.status,
        paid_at: payout.paidAt,
        failed_at: payout.failedAt,
        failure_code: payout.failureCode,
        reason_code: payout.reasonCode,
      })
      .where('id', '=', payout.id)
      .execute();
    const type = eventTypeOf(payout);
    const event = { type, payout: payoutToProto(payout), occurredAt };
    await enqueue(client, {
      ...outboxMessage(PAYOUT_EVENTS, event, PAYOUT_EVENTS.routingKey(type)),
      headers: modeHeader(payout.livemode),
    });
  }

  async findStatuses(payoutIds: readonly string[]): Promise<{ payoutId: string; status: string }[]> {
    const rows = await this.db
      .selectFrom('payouts')
      .select(['id', 'status'])
      .where('id', '=', sql<string>`any(${[...payoutIds]}::text[])`)
      .execute();
    return rows.map((row) => ({ payoutId: row.id, status: row.status }));
  }

  async audit(livemode: boolean): Promise<PayoutsAudit> {
    const pending = await this.db
      .selectFrom('payouts')
      // sum(int8) is a numeric: cast back to int8, read as a bigint.
      .select((eb) => ['merchant_id', eb.cast<bigint | null>(eb.fn.sum('amount'), 'bigint').as('amount')])
      .where('livemode', '=', livemode)
      .where('status', '=', 'pending')
      .groupBy('merchant_id')
      .execute();
    const settled = await this.db
      .selectFrom('payouts')
      .select(['id', 'status'])
      .where('livemode', '=', livemode)
      .where('status', 'in', ['paid', 'failed'])
      .execute();
    return {
      pending: pending.map((row) => ({ merchantId: row.merchant_id, amount: row.amount ?? 0n })),
      settled: settled.map((row) => ({
        payoutId: row.id,
        status: row.status === 'paid' ? 'paid' : 'failed',
      })),
    };
  }
}
