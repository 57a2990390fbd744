import type { SqlDatabase } from '@sika/platform';
import type { BooksAudit, BooksAuditStore } from '../app/ports';
import { ADJUSTMENT_KIND } from '../domain/adjustment';
import { PAYOUT_KINDS } from '../domain/payout';
import { systemAccountTotal } from './account-balances';

/** The audit's reads of the books in one mode: every invariant AuditBooks reports, in a few aggregates. */
export class SqlBooksAuditStore implements BooksAuditStore {
  constructor(private readonly db: Pick<SqlDatabase, '$queryRaw'>) {}

  async auditBooks(livemode: boolean): Promise<BooksAudit> {
    const unbalanced = await this.db.$queryRaw<{ id: bigint }[]>`
      SELECT t.id FROM ledger_transactions t JOIN postings p ON p.ledger_transaction_id = t.id
        JOIN accounts a ON a.id = p.account_id
       WHERE a.livemode = ${livemode}
       GROUP BY t.id HAVING SUM(p.amount) <> 0 OR COUNT(*) < 2`;
    const outOfBalance = await this.db.$queryRaw<{ merchant_id: string }[]>`
      WITH postings_total AS (
        SELECT a.owner_id AS merchant_id, COALESCE(SUM(p.amount), 0) AS total
          FROM accounts a LEFT JOIN postings p ON p.account_id = a.id
         WHERE a.livemode = ${livemode} AND a.kind = 'available'
         GROUP BY a.owner_id),
      movements_total AS (
        SELECT merchant_id, SUM(amount) AS total FROM balance_transactions
         WHERE livemode = ${livemode} GROUP BY merchant_id)
      SELECT COALESCE(p.merchant_id, m.merchant_id) AS merchant_id
        FROM postings_total p FULL JOIN movements_total m ON m.merchant_id = p.merchant_id
       WHERE COALESCE(p.total, 0) <> COALESCE(m.total, 0) OR COALESCE(p.total, 0) < 0`;
    const credited = await this.db.$queryRaw<{ source_id: string; payments: number; fees: number }[]>`
      SELECT source_id,
             COUNT(*) FILTER (WHERE type = 'payment')::int AS payments,
             COUNT(*) FILTER (WHERE type = 'fee')::int AS fees
        FROM balance_transactions
       WHERE livemode = ${livemode} AND type IN ('payment', 'fee')
       GROUP BY source_id`;
    const payouts = await this.db.$queryRaw<
      { source_id: string; reservations: number; releases: number; reversals: number }[]
    >`
      SELECT t.source_id,
             COUNT(*) FILTER (WHERE t.kind = ${PAYOUT_KINDS.reservation})::int AS reservations,
             COUNT(*) FILTER (WHERE t.kind = ${PAYOUT_KINDS.paid})::int AS releases,
             COUNT(*) FILTER (WHERE t.kind = ${PAYOUT_KINDS.reversal})::int AS reversals
        FROM ledger_transactions t
       WHERE t.kind IN (${PAYOUT_KINDS.reservation}, ${PAYOUT_KINDS.paid}, ${PAYOUT_KINDS.reversal})
         AND EXISTS (SELECT 1 FROM postings p JOIN accounts a ON a.id = p.account_id
                      WHERE p.ledger_transaction_id = t.id AND a.livemode = ${livemode})
       GROUP BY t.source_id`;
    const pendingPayouts = await this.db.$queryRaw<{ merchant_id: string; total: bigint }[]>`
      SELECT a.owner_id AS merchant_id, SUM(p.amount)::bigint AS total
        FROM accounts a JOIN postings p ON p.account_id = a.id
       WHERE a.livemode = ${livemode} AND a.kind = 'pending_payout'
       GROUP BY a.owner_id HAVING SUM(p.amount) <> 0`;
    // Each adjustment has its record, one ledger transaction whose available posting is its amount, and one
    // movement of that amount, all of the same merchant; anything else is named.
    const unmatchedAdjustments = await this.db.$queryRaw<{ id: string }[]>`
      WITH recorded AS (
        SELECT id, merchant_id, amount FROM adjustments WHERE livemode = ${livemode}),
      moved AS (
        SELECT source_id, min(merchant_id) AS merchant_id, count(*) AS movements, sum(amount) AS amount
          FROM balance_transactions WHERE livemode = ${livemode} AND type = 'adjustment'
         GROUP BY source_id),
      posted AS (
        SELECT t.source_id, min(a.owner_id) FILTER (WHERE a.kind = 'available') AS merchant_id,
               count(DISTINCT t.id) AS transactions,
               sum(p.amount) FILTER (WHERE a.kind = 'available') AS amount
          FROM ledger_transactions t JOIN postings p ON p.ledger_transaction_id = t.id
          JOIN accounts a ON a.id = p.account_id
         WHERE t.kind = ${ADJUSTMENT_KIND} AND a.livemode = ${livemode}
         GROUP BY t.source_id),
      named AS (
        SELECT COALESCE(r.id, m.source_id) AS id, r.merchant_id, r.amount,
               m.merchant_id AS moved_merchant_id, m.movements, m.amount AS moved
          FROM recorded r FULL JOIN moved m ON m.source_id = r.id)
      SELECT COALESCE(n.id, p.source_id) AS id
        FROM named n FULL JOIN posted p ON p.source_id = n.id
       WHERE NOT COALESCE(n.amount IS NOT NULL AND n.movements = 1 AND p.transactions = 1
                          AND n.moved = n.amount AND p.amount = n.amount
                          AND n.moved_merchant_id = n.merchant_id AND p.merchant_id = n.merchant_id, false)
       ORDER BY 1`;
    const [adjusted] = await this.db.$queryRaw<{ count: number; total: bigint }[]>`
      SELECT count(*)::int AS count, COALESCE(sum(amount), 0)::bigint AS total
        FROM adjustments WHERE livemode = ${livemode}`;
    const balanceMismatches = await this.db.$queryRaw<
      { owner_id: string; kind: string; balance: bigint; postings_total: bigint }[]
    >`
      SELECT a.owner_id, a.kind, a.balance, COALESCE(SUM(p.amount), 0)::bigint AS postings_total
        FROM accounts a LEFT JOIN postings p ON p.account_id = a.id
       WHERE a.livemode = ${livemode}
       GROUP BY a.id
      HAVING a.balance <> COALESCE(SUM(p.amount), 0)
       ORDER BY a.owner_id, a.kind`;
    return {
      payouts: payouts.map((row) => ({
        payoutId: row.source_id,
        reservations: row.reservations,
        releases: row.releases,
        reversals: row.reversals,
      })),
      pendingPayouts: pendingPayouts.map((row) => ({
        merchantId: row.merchant_id,
        pendingPayout: row.total,
      })),
      adjustmentCount: adjusted?.count ?? 0,
      adjustmentTotal: adjusted?.total ?? 0n,
      unmatchedAdjustments: unmatchedAdjustments.map((row) => row.id),
      balanceMismatches: balanceMismatches.map((row) => ({
        ownerId: row.owner_id,
        kind: row.kind,
        balance: row.balance,
        postingsTotal: row.postings_total,
      })),
      unbalancedTransactions: unbalanced.map((row) => String(row.id)),
      merchantsOutOfBalance: outOfBalance.map((row) => row.merchant_id),
      creditedPayments: credited.map((row) => ({
        paymentId: row.source_id,
        paymentMovements: row.payments,
        feeMovements: row.fees,
      })),
      refundsPayable: await systemAccountTotal(this.db, livemode, 'refunds_payable'),
    };
  }
}
