import { outboxMessage, PAYOUT_EVENTS, PAYOUT_TRANSFER_REQUESTS } from '@sika/contracts';
import { enqueue, modeHeader } from '@sika/messaging';
import type { IdempotencyKeyStore, IdempotentRequest } from '@sika/platform';
import type { PayoutFailureCode } from '@sika/rules';
import type { PayoutListQuery, PayoutsAudit, PayoutStore, Scope, Transaction } from '../app/ports';
import { eventTypeOf, isVisible, type Payout, type VisiblePayout } from '../domain/payout';
import type { Payout as PayoutRow } from '../generated/prisma/client';
import { dayToDate, type Database, type Tx } from './database';
import { payoutToProto } from './payout-proto';

function toPayout(row: PayoutRow): Payout {
  return {
    id: row.id,
    merchantId: row.merchantId,
    livemode: row.livemode,
    status: row.status,
    method: row.method,
    requestedAmount: row.requestedAmount,
    amount: row.amount,
    currency: row.currency,
    destination: {
      aliasType: row.aliasType,
      alias: row.alias,
      aliasMasked: row.aliasMasked,
      holderName: row.holderName,
    },
    failureCode: row.failureCode as PayoutFailureCode | null,
    reasonCode: row.reasonCode,
    automaticFor: row.automaticFor?.toISOString().slice(0, 10) ?? null,
    createdAt: row.createdAt,
    paidAt: row.paidAt,
    failedAt: row.failedAt,
  };
}

function visible(row: PayoutRow | null): VisiblePayout | undefined {
  const payout = row && toPayout(row);
  return payout && isVisible(payout) ? payout : undefined;
}

function rowOf(payout: Payout, leaseUntil: Date) {
  const { destination, automaticFor, ...fields } = payout;
  return {
    ...fields,
    ...destination,
    automaticFor: automaticFor === null ? null : dayToDate(automaticFor),
    reserveLeaseUntil: leaseUntil,
  };
}

const VISIBLE_STATUSES = ['pending', 'paid', 'failed'] as const;

export class PrismaPayoutStore implements PayoutStore {
  /** `eventsCommitted` wakes the outbox relay after this store commits an outbox message of its own. */
  constructor(
    private readonly db: Database,
    private readonly keys: IdempotencyKeyStore,
    private readonly eventsCommitted: () => void,
  ) {}

  recordRequested(
    request: IdempotentRequest,
    payout: Payout,
    leaseUntil: Date,
  ): Promise<{ kind: 'recorded' } | { kind: 'replay'; payout: Payout }> {
    return this.db.$transaction(async (tx) => {
      const replayedId = await this.keys.claim(tx, request);
      if (replayedId !== null) {
        const replayed = await tx.payout.findUnique({ where: { id: replayedId } });
        if (replayed) return { kind: 'replay' as const, payout: toPayout(replayed) };
        await this.keys.forget(tx, request.scope);
      }
      await tx.payout.create({ data: rowOf(payout, leaseUntil) });
      await this.keys.remember(tx, request, payout.id);
      return { kind: 'recorded' as const };
    });
  }

  async recordAutomatic(payout: Payout, leaseUntil: Date): Promise<boolean> {
    const { count } = await this.db.payout.createMany({
      data: [rowOf(payout, leaseUntil)],
      skipDuplicates: true,
    });
    return count === 1;
  }

  async takeOverReservation(payoutId: string, leaseUntil: Date, now: Date): Promise<Payout | undefined> {
    const { count } = await this.db.payout.updateMany({
      where: { id: payoutId, status: 'reserving', reserveLeaseUntil: { lte: now } },
      data: { reserveLeaseUntil: leaseUntil },
    });
    if (count === 0) return undefined;
    const row = await this.db.payout.findUnique({ where: { id: payoutId } });
    return row ? toPayout(row) : undefined;
  }

  async abandonedReservations(now: Date, limit: number): Promise<string[]> {
    const rows = await this.db.payout.findMany({
      where: { status: 'reserving', reserveLeaseUntil: { lte: now } },
      orderBy: { reserveLeaseUntil: 'asc' },
      take: limit,
      select: { id: true },
    });
    return rows.map((row) => row.id);
  }

  async markReserved(
    payoutId: string,
    amount: bigint,
    reason: (payout: Payout) => string,
  ): Promise<Payout | undefined> {
    const reserved = await this.db.$transaction(async (tx) => {
      // `refused` too: a reservation the ledger made after all (a slow first request whose payout the sweeper
      // saw refused) must not be stranded without its payout.
      const { count } = await tx.payout.updateMany({
        where: { id: payoutId, status: { in: ['reserving', 'refused'] } },
        data: { status: 'pending', amount, reserveLeaseUntil: null },
      });
      if (count === 0) return undefined;
      const payout = toPayout(await tx.payout.findUniqueOrThrow({ where: { id: payoutId } }));
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
    await this.db.$transaction(async (tx) => {
      await tx.payout.updateMany({
        where: { id: payoutId, status: 'reserving' },
        data: { status: 'refused', reserveLeaseUntil: null },
      });
      await this.keys.forgetResource(tx, payoutId);
    });
  }

  async findInScope(scope: Scope, payoutId: string): Promise<VisiblePayout | undefined> {
    return visible(await this.db.payout.findFirst({ where: { id: payoutId, ...scope } }));
  }

  async list(query: PayoutListQuery): Promise<{ payouts: VisiblePayout[]; hasMore: boolean }> {
    const { scope, startingAfter } = query;
    const cursor =
      startingAfter === undefined
        ? undefined
        : await this.db.payout.findFirst({
            where: { id: startingAfter, ...scope },
            select: { id: true, createdAt: true },
          });
    const rows = await this.db.payout.findMany({
      where: {
        ...scope,
        status: query.status ?? { in: [...VISIBLE_STATUSES] },
        createdAt: {
          ...(query.createdFrom && { gte: query.createdFrom }),
          ...(query.createdTo && { lt: query.createdTo }),
        },
        ...(cursor && {
          OR: [
            { createdAt: { lt: cursor.createdAt } },
            { createdAt: cursor.createdAt, id: { lt: cursor.id } },
          ],
        }),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: query.take + 1,
    });
    const payouts = rows.slice(0, query.take).map(toPayout).filter(isVisible);
    return { payouts, hasMore: rows.length > query.take };
  }

  async lockById(tx: Transaction, payoutId: string): Promise<Payout | undefined> {
    const rows = await (tx as Tx).$queryRaw<
      { id: string }[]
    >`SELECT id FROM payouts WHERE id = ${payoutId} FOR UPDATE`;
    if (rows.length === 0) return undefined;
    return toPayout(await (tx as Tx).payout.findUniqueOrThrow({ where: { id: payoutId } }));
  }

  async recordSettled(tx: Transaction, payout: VisiblePayout, occurredAt: Date): Promise<void> {
    const client = tx as Tx;
    await client.payout.update({
      where: { id: payout.id },
      data: {
        status: payout.status,
        paidAt: payout.paidAt,
        failedAt: payout.failedAt,
        failureCode: payout.failureCode,
        reasonCode: payout.reasonCode,
      },
    });
    const type = eventTypeOf(payout);
    const event = { type, payout: payoutToProto(payout), occurredAt };
    await enqueue(client, {
      ...outboxMessage(PAYOUT_EVENTS, event, PAYOUT_EVENTS.routingKey(type)),
      headers: modeHeader(payout.livemode),
    });
  }

  async findStatuses(payoutIds: readonly string[]): Promise<{ payoutId: string; status: string }[]> {
    const rows = await this.db.payout.findMany({
      where: { id: { in: [...payoutIds] } },
      select: { id: true, status: true },
    });
    return rows.map((row) => ({ payoutId: row.id, status: row.status }));
  }

  async audit(livemode: boolean): Promise<PayoutsAudit> {
    const pending = await this.db.payout.groupBy({
      by: ['merchantId'],
      where: { livemode, status: 'pending' },
      _sum: { amount: true },
    });
    const settled = await this.db.payout.findMany({
      where: { livemode, status: { in: ['paid', 'failed'] } },
      select: { id: true, status: true },
    });
    return {
      pending: pending.map((row) => ({ merchantId: row.merchantId, amount: row._sum.amount ?? 0n })),
      settled: settled.map((row) => ({
        payoutId: row.id,
        status: row.status === 'paid' ? 'paid' : 'failed',
      })),
    };
  }
}
