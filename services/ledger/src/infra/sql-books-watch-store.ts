import { sql, type Kysely } from 'kysely';
import type { BooksWatchStore } from '../app/ports';
import { SYSTEM_OWNER } from '../domain/accounts';
import { WATCHED_PAYOUT_KINDS, type RecentBookings } from '../domain/books-watch';
import { REFUND_KINDS } from '../domain/refund';
import type { DB } from '../generated/database';
import { creditMovementCounts, payoutTransactionCounts } from './books-counts';

const PAYMENT_CREDIT = 'payment_credit';

/**
 * The books watch's reads. Every one goes through an index from the ids of the transactions read: the
 * ledger_transactions primary key, postings by transaction and by account, movements and transactions by
 * source. A round costs the transactions it reads, not the size of the books, but for the balances of the
 * accounts they touched.
 */
export class SqlBooksWatchStore implements BooksWatchStore {
  constructor(private readonly db: Kysely<DB>) {}

  async lastPosition(): Promise<bigint> {
    const row = await this.db
      .selectFrom('ledger_transactions')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    return row?.id ?? 0n;
  }

  async bookedAfter(
    after: bigint,
    limit: number,
    gaps: readonly bigint[],
  ): Promise<{ bookings: RecentBookings; readAfter: bigint[]; gapsFound: bigint[] }> {
    const [inOrder, late] = await Promise.all([
      this.db
        .selectFrom('ledger_transactions')
        .select(['id', 'kind', 'source_id'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(limit)
        .execute(),
      gaps.length === 0
        ? Promise.resolve([])
        : this.db
            .selectFrom('ledger_transactions')
            .select(['id', 'kind', 'source_id'])
            .where('id', '=', sql<bigint>`ANY (${gaps.map(String)}::bigint[])`)
            .execute(),
    ]);
    const transactions = [...late, ...inOrder];
    const ids = transactions.map((transaction) => transaction.id);
    const sourcesOf = (kinds: readonly string[]) => [
      ...new Set(transactions.filter((t) => kinds.includes(t.kind)).map((t) => t.source_id)),
    ];
    const creditedPaymentIds = sourcesOf([PAYMENT_CREDIT]);
    const payoutIds = sourcesOf(WATCHED_PAYOUT_KINDS);
    const refunded = sourcesOf(Object.values(REFUND_KINDS)).length > 0;
    const [unbalanced, wrongBalances, credits, payouts, negativeRefundsPayable] = await Promise.all([
      this.unbalanced(ids),
      this.wrongBalances(ids),
      this.credits(creditedPaymentIds),
      this.payouts(payoutIds),
      refunded ? this.negativeRefundsPayable() : Promise.resolve([]),
    ]);
    return {
      bookings: { unbalanced, wrongBalances, negativeRefundsPayable, credits, payouts },
      readAfter: inOrder.map((transaction) => transaction.id),
      gapsFound: late.map((transaction) => transaction.id),
    };
  }

  private async unbalanced(ids: readonly bigint[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom(sql<{ id: bigint }>`unnest(${ids.map(String)}::bigint[])`.as<'t'>(sql`t (id)`))
      .leftJoin('postings as p', 'p.ledger_transaction_id', 't.id')
      .select('t.id')
      .groupBy('t.id')
      .having((eb) =>
        eb.or([
          eb(eb.fn.coalesce(eb.fn.sum('p.amount'), eb.lit(0)), '<>', eb.lit(0)),
          eb(eb.fn.count('p.id'), '<', eb.lit(2)),
        ]),
      )
      .execute();
    return rows.map((row) => String(row.id));
  }

  private async wrongBalances(ids: readonly bigint[]): Promise<RecentBookings['wrongBalances']> {
    if (ids.length === 0) return [];
    // Merchants' accounts only: Sika's own are posted to by every credit, and summing them each round would
    // cost the books' whole history (the operator's audit checks them).
    const rows = await this.db
      .selectFrom('accounts as a')
      .innerJoin('postings as p', 'p.account_id', 'a.id')
      .select((eb) => [
        'a.owner_id',
        'a.livemode',
        'a.kind',
        'a.balance',
        eb.cast<bigint>(eb.fn.sum('p.amount'), 'bigint').as('postings_total'),
      ])
      .where('a.owner_id', '<>', SYSTEM_OWNER)
      .where('a.id', 'in', (eb) =>
        eb
          .selectFrom('postings')
          .select('account_id')
          .where('ledger_transaction_id', '=', sql<bigint>`ANY (${ids.map(String)}::bigint[])`),
      )
      .groupBy(['a.id', 'a.owner_id', 'a.livemode', 'a.kind', 'a.balance'])
      .having((eb) =>
        eb.or([
          eb(eb.fn.sum('p.amount'), '<', eb.lit(0)),
          eb(eb.fn.sum('p.amount'), '<>', eb.ref('a.balance')),
        ]),
      )
      .execute();
    return rows.map((row) => ({
      merchantId: row.owner_id,
      livemode: row.livemode,
      kind: row.kind,
      balance: row.balance,
      postingsTotal: row.postings_total,
    }));
  }

  private async credits(paymentIds: readonly string[]): Promise<RecentBookings['credits']> {
    if (paymentIds.length === 0) return [];
    const rows = await creditMovementCounts(this.db)
      .where('source_id', '=', sql<string>`ANY (${paymentIds}::text[])`)
      .execute();
    const counted = new Map(rows.map((row) => [row.source_id, row]));
    return paymentIds.map((paymentId) => ({
      paymentId,
      paymentMovements: counted.get(paymentId)?.payments ?? 0,
      feeMovements: counted.get(paymentId)?.fees ?? 0,
    }));
  }

  private async payouts(payoutIds: readonly string[]): Promise<RecentBookings['payouts']> {
    if (payoutIds.length === 0) return [];
    const rows = await payoutTransactionCounts(this.db)
      .where('t.source_id', '=', sql<string>`ANY (${payoutIds}::text[])`)
      .where('t.kind', '=', sql<string>`ANY (${WATCHED_PAYOUT_KINDS}::text[])`)
      .execute();
    return rows.map((row) => ({
      payoutId: row.source_id,
      reservations: row.reservations,
      releases: row.releases,
      reversals: row.reversals,
    }));
  }

  private async negativeRefundsPayable(): Promise<RecentBookings['negativeRefundsPayable']> {
    const rows = await this.db
      .selectFrom('accounts as a')
      .innerJoin('postings as p', 'p.account_id', 'a.id')
      .select((eb) => ['a.livemode', eb.cast<bigint>(eb.fn.sum('p.amount'), 'bigint').as('balance')])
      .where('a.owner_id', '=', SYSTEM_OWNER)
      .where('a.kind', '=', sql.lit('refunds_payable'))
      .groupBy('a.livemode')
      .having((eb) => eb(eb.fn.sum('p.amount'), '<', eb.lit(0)))
      .execute();
    return rows.map((row) => ({ livemode: row.livemode, balance: row.balance }));
  }
}
