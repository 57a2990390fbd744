import type { SqlDatabase } from '@sika/platform';
import type { BooksWatchStore } from '../app/ports';
import { SYSTEM_OWNER } from '../domain/accounts';
import { WATCHED_PAYOUT_KINDS, type RecentBookings } from '../domain/books-watch';
import { PAYOUT_KINDS } from '../domain/payout';
import { REFUND_KINDS } from '../domain/refund';

const PAYMENT_CREDIT = 'payment_credit';

/**
 * The books watch's reads. Every one goes through an index from the ids of the transactions read: the
 * ledger_transactions primary key, postings by transaction and by account, movements and transactions by
 * source. A round costs the transactions it reads, not the size of the books, but for the balances of the
 * accounts they touched.
 */
export class SqlBooksWatchStore implements BooksWatchStore {
  constructor(private readonly db: Pick<SqlDatabase, '$queryRaw'>) {}

  async lastPosition(): Promise<bigint> {
    const [row] = await this.db.$queryRaw<
      { id: bigint | null }[]
    >`SELECT max(id) AS id FROM ledger_transactions`;
    return row?.id ?? 0n;
  }

  async bookedAfter(
    after: bigint,
    limit: number,
  ): Promise<{ bookings: RecentBookings; position: bigint; read: number }> {
    const transactions = await this.db.$queryRaw<{ id: bigint; kind: string; source_id: string }[]>`
      SELECT id, kind, source_id FROM ledger_transactions WHERE id > ${after} ORDER BY id LIMIT ${limit}`;
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
      position: ids.at(-1) ?? after,
      read: ids.length,
    };
  }

  private async unbalanced(ids: readonly bigint[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.$queryRaw<{ id: bigint }[]>`
      SELECT t.id FROM unnest(${ids.map(String)}::bigint[]) AS t (id)
        LEFT JOIN postings p ON p.ledger_transaction_id = t.id
       GROUP BY t.id HAVING COALESCE(SUM(p.amount), 0) <> 0 OR COUNT(p.id) < 2`;
    return rows.map((row) => String(row.id));
  }

  private async wrongBalances(ids: readonly bigint[]): Promise<RecentBookings['wrongBalances']> {
    if (ids.length === 0) return [];
    // Merchants' accounts only: Sika's own are posted to by every credit, and summing them each round would
    // cost the books' whole history (the operator's audit checks them).
    const rows = await this.db.$queryRaw<
      { owner_id: string; livemode: boolean; kind: string; balance: bigint; postings_total: bigint }[]
    >`
      SELECT a.owner_id, a.livemode, a.kind, a.balance, SUM(p.amount)::bigint AS postings_total
        FROM accounts a JOIN postings p ON p.account_id = a.id
       WHERE a.owner_id <> ${SYSTEM_OWNER}
         AND a.id IN (SELECT account_id FROM postings WHERE ledger_transaction_id = ANY (${ids.map(String)}::bigint[]))
       GROUP BY a.id, a.owner_id, a.livemode, a.kind, a.balance
      HAVING SUM(p.amount) < 0 OR SUM(p.amount) <> a.balance`;
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
    const rows = await this.db.$queryRaw<{ source_id: string; payments: number; fees: number }[]>`
      SELECT source_id,
             COUNT(*) FILTER (WHERE type = 'payment')::int AS payments,
             COUNT(*) FILTER (WHERE type = 'fee')::int AS fees
        FROM balance_transactions
       WHERE source_id = ANY (${paymentIds}::text[]) AND type IN ('payment', 'fee')
       GROUP BY source_id`;
    const counted = new Map(rows.map((row) => [row.source_id, row]));
    return paymentIds.map((paymentId) => ({
      paymentId,
      paymentMovements: counted.get(paymentId)?.payments ?? 0,
      feeMovements: counted.get(paymentId)?.fees ?? 0,
    }));
  }

  private async payouts(payoutIds: readonly string[]): Promise<RecentBookings['payouts']> {
    if (payoutIds.length === 0) return [];
    const rows = await this.db.$queryRaw<
      { source_id: string; reservations: number; releases: number; reversals: number }[]
    >`
      SELECT source_id,
             COUNT(*) FILTER (WHERE kind = ${PAYOUT_KINDS.reservation})::int AS reservations,
             COUNT(*) FILTER (WHERE kind = ${PAYOUT_KINDS.paid})::int AS releases,
             COUNT(*) FILTER (WHERE kind = ${PAYOUT_KINDS.reversal})::int AS reversals
        FROM ledger_transactions
       WHERE source_id = ANY (${payoutIds}::text[]) AND kind = ANY (${WATCHED_PAYOUT_KINDS}::text[])
       GROUP BY source_id`;
    return rows.map((row) => ({
      payoutId: row.source_id,
      reservations: row.reservations,
      releases: row.releases,
      reversals: row.reversals,
    }));
  }

  private async negativeRefundsPayable(): Promise<RecentBookings['negativeRefundsPayable']> {
    const rows = await this.db.$queryRaw<{ livemode: boolean; balance: bigint }[]>`
      SELECT a.livemode, SUM(p.amount)::bigint AS balance
        FROM accounts a JOIN postings p ON p.account_id = a.id
       WHERE a.owner_id = ${SYSTEM_OWNER} AND a.kind = 'refunds_payable'
       GROUP BY a.livemode HAVING SUM(p.amount) < 0`;
    return rows.map((row) => ({ livemode: row.livemode, balance: row.balance }));
  }
}
