import type { Database } from '@sika/platform';
import { sql, type Kysely } from 'kysely';
import type { BooksWatchReading, BooksWatchStore } from '../app/ports';
import { SYSTEM_OWNER } from '../domain/accounts';
import type { TouchedBalance } from '../domain/balance-trail';
import { WATCHED_PAYOUT_KINDS, type RecentBookings } from '../domain/books-watch';
import { REFUND_KINDS } from '../domain/refund';
import type { DB } from '../generated/database';
import { creditMovementCounts, payoutTransactionCounts } from './books-counts';

const PAYMENT_CREDIT = 'payment_credit';
/** A round reads a backlog of up to 20,000 transactions in a few statements, each bound by the statement timeout. */
const ROUND_TIMEOUT_MS = 60_000;

/**
 * The books watch's reads, all in one read-only snapshot (repeatable read), so that the balances a round reads
 * are exactly those of the transactions it saw. Every read goes through an index from the ids of the
 * transactions read: the ledger_transactions primary key, postings by transaction, movements and transactions
 * by source. A round costs the transactions it reads, not the size of the books; an account's whole postings
 * are summed only when the watch does not hold its balance yet.
 */
export class SqlBooksWatchStore implements BooksWatchStore {
  constructor(private readonly db: Kysely<DB> & Pick<Database<DB>, 'transact'>) {}

  async lastPosition(): Promise<bigint> {
    const row = await this.db
      .selectFrom('ledger_transactions')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    return row?.id ?? 0n;
  }

  bookedAfter(
    after: bigint,
    limit: number,
    gaps: readonly bigint[],
    holdsBalance: (accountId: string) => boolean,
  ): Promise<BooksWatchReading> {
    return this.db.transact(
      async (trx) => {
        await sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`.execute(trx);
        const inOrder = await trx
          .selectFrom('ledger_transactions')
          .select(['id', 'kind', 'source_id'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(limit)
          .execute();
        const late =
          gaps.length === 0
            ? []
            : await trx
                .selectFrom('ledger_transactions')
                .select(['id', 'kind', 'source_id'])
                .where('id', '=', sql<bigint>`ANY (${gaps.map(String)}::bigint[])`)
                .execute();
        const transactions = [...late, ...inOrder];
        const ids = transactions.map((transaction) => transaction.id);
        const sourcesOf = (kinds: readonly string[]) => [
          ...new Set(transactions.filter((t) => kinds.includes(t.kind)).map((t) => t.source_id)),
        ];
        const complete = inOrder.length < limit;
        return {
          bookings: {
            unbalanced: await unbalanced(trx, ids),
            credits: await credits(trx, sourcesOf([PAYMENT_CREDIT])),
            payouts: await payouts(trx, sourcesOf(WATCHED_PAYOUT_KINDS)),
            negativeRefundsPayable:
              sourcesOf(Object.values(REFUND_KINDS)).length > 0 ? await negativeRefundsPayable(trx) : [],
          },
          balances: await touchedBalances(trx, ids, (accountId) => complete && holdsBalance(accountId)),
          readAfter: inOrder.map((transaction) => transaction.id),
          gapsFound: late.map((transaction) => transaction.id),
          complete,
        };
      },
      { timeout: ROUND_TIMEOUT_MS },
    );
  }
}

async function unbalanced(db: Kysely<DB>, ids: readonly bigint[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
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

/**
 * The merchant accounts the transactions `ids` posted to, with what they posted; and, for those `holdsBalance`
 * does not hold, the sum of all their postings. Sika's own accounts are posted to by every credit: summing them
 * would cost the books' whole history, so the operator's audit checks them.
 */
async function touchedBalances(
  db: Kysely<DB>,
  ids: readonly bigint[],
  holdsBalance: (accountId: string) => boolean,
): Promise<TouchedBalance[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('postings as p')
    .innerJoin('accounts as a', 'a.id', 'p.account_id')
    .select((eb) => [
      'a.id',
      'a.owner_id',
      'a.livemode',
      'a.kind',
      'a.balance',
      eb.cast<bigint>(eb.fn.sum('p.amount'), 'bigint').as('posted'),
    ])
    .where('p.ledger_transaction_id', '=', sql<bigint>`ANY (${ids.map(String)}::bigint[])`)
    .where('a.owner_id', '<>', SYSTEM_OWNER)
    .groupBy(['a.id', 'a.owner_id', 'a.livemode', 'a.kind', 'a.balance'])
    .execute();
  const unheld = rows.filter((row) => !holdsBalance(String(row.id))).map((row) => String(row.id));
  const totals =
    unheld.length === 0
      ? []
      : await db
          .selectFrom('postings')
          .select((eb) => ['account_id', eb.cast<bigint>(eb.fn.sum('amount'), 'bigint').as('total')])
          .where('account_id', '=', sql<bigint>`ANY (${unheld}::bigint[])`)
          .groupBy('account_id')
          .execute();
  const totalOf = new Map(totals.map((row) => [String(row.account_id), row.total]));
  return rows.map((row) => {
    const total = totalOf.get(String(row.id));
    return {
      accountId: String(row.id),
      merchantId: row.owner_id,
      livemode: row.livemode,
      kind: row.kind,
      balance: row.balance,
      posted: row.posted,
      ...(total !== undefined && { postingsTotal: total }),
    };
  });
}

async function credits(db: Kysely<DB>, paymentIds: readonly string[]): Promise<RecentBookings['credits']> {
  if (paymentIds.length === 0) return [];
  const rows = await creditMovementCounts(db)
    .where('source_id', '=', sql<string>`ANY (${paymentIds}::text[])`)
    .execute();
  const counted = new Map(rows.map((row) => [row.source_id, row]));
  return paymentIds.map((paymentId) => ({
    paymentId,
    paymentMovements: counted.get(paymentId)?.payments ?? 0,
    feeMovements: counted.get(paymentId)?.fees ?? 0,
  }));
}

async function payouts(db: Kysely<DB>, payoutIds: readonly string[]): Promise<RecentBookings['payouts']> {
  if (payoutIds.length === 0) return [];
  const rows = await payoutTransactionCounts(db)
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

async function negativeRefundsPayable(db: Kysely<DB>): Promise<RecentBookings['negativeRefundsPayable']> {
  const rows = await db
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
