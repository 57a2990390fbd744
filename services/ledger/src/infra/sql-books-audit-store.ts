import { sql, type Kysely } from 'kysely';
import type { BooksAudit, BooksAuditStore } from '../app/ports';
import { ADJUSTMENT_KIND } from '../domain/adjustment';
import { PAYOUT_KINDS } from '../domain/payout';
import type { DB } from '../generated/database';
import { systemAccountTotal } from './account-balances';
import { creditMovementCounts, payoutTransactionCounts } from './books-counts';

/** The audit's reads of the books in one mode: every invariant AuditBooks reports, in a few aggregates. */
export class SqlBooksAuditStore implements BooksAuditStore {
  constructor(private readonly db: Kysely<DB>) {}

  async auditBooks(livemode: boolean): Promise<BooksAudit> {
    const unbalanced = await this.db
      .selectFrom('ledger_transactions as t')
      .innerJoin('postings as p', 'p.ledger_transaction_id', 't.id')
      .innerJoin('accounts as a', 'a.id', 'p.account_id')
      .select('t.id')
      .where('a.livemode', '=', livemode)
      .groupBy('t.id')
      .having((eb) =>
        eb.or([eb(eb.fn.sum('p.amount'), '<>', eb.lit(0)), eb(eb.fn.countAll(), '<', eb.lit(2))]),
      )
      .execute();
    const outOfBalance = await this.db
      .with('postings_total', (db) =>
        db
          .selectFrom('accounts as a')
          .leftJoin('postings as p', 'p.account_id', 'a.id')
          .select((eb) => [
            'a.owner_id as merchant_id',
            eb.fn.coalesce(eb.fn.sum<bigint>('p.amount'), eb.lit(0)).as('total'),
          ])
          .where('a.livemode', '=', livemode)
          .where('a.kind', '=', sql.lit('available'))
          .groupBy('a.owner_id'),
      )
      .with('movements_total', (db) =>
        db
          .selectFrom('balance_transactions')
          .select((eb) => ['merchant_id', eb.fn.sum<bigint>('amount').as('total')])
          .where('livemode', '=', livemode)
          .groupBy('merchant_id'),
      )
      .selectFrom('postings_total as p')
      .fullJoin('movements_total as m', 'm.merchant_id', 'p.merchant_id')
      .select((eb) => eb.fn.coalesce('p.merchant_id', 'm.merchant_id').as('merchant_id'))
      .where((eb) =>
        eb.or([
          eb(eb.fn.coalesce('p.total', eb.lit(0)), '<>', eb.fn.coalesce('m.total', eb.lit(0))),
          eb(eb.fn.coalesce('p.total', eb.lit(0)), '<', eb.lit(0)),
        ]),
      )
      .$narrowType<{ merchant_id: string }>()
      .execute();
    const credited = await creditMovementCounts(this.db).where('livemode', '=', livemode).execute();
    const payouts = await payoutTransactionCounts(this.db)
      .where('t.kind', 'in', [PAYOUT_KINDS.reservation, PAYOUT_KINDS.paid, PAYOUT_KINDS.reversal])
      .where(({ exists, selectFrom, lit }) =>
        exists(
          selectFrom('postings as p')
            .innerJoin('accounts as a', 'a.id', 'p.account_id')
            .select(lit(1).as('one'))
            .whereRef('p.ledger_transaction_id', '=', 't.id')
            .where('a.livemode', '=', livemode),
        ),
      )
      .execute();
    const pendingPayouts = await this.db
      .selectFrom('accounts as a')
      .innerJoin('postings as p', 'p.account_id', 'a.id')
      .select((eb) => [
        'a.owner_id as merchant_id',
        eb.cast<bigint>(eb.fn.sum('p.amount'), 'bigint').as('total'),
      ])
      .where('a.livemode', '=', livemode)
      .where('a.kind', '=', sql.lit('pending_payout'))
      .groupBy('a.owner_id')
      .having((eb) => eb(eb.fn.sum('p.amount'), '<>', eb.lit(0)))
      .execute();
    // Each adjustment has its record, one ledger transaction whose available posting is its amount, and one
    // movement of that amount, all of the same merchant; anything else is named.
    const unmatchedAdjustments = await this.db
      .with('recorded', (db) =>
        db.selectFrom('adjustments').select(['id', 'merchant_id', 'amount']).where('livemode', '=', livemode),
      )
      .with('moved', (db) =>
        db
          .selectFrom('balance_transactions')
          .select((eb) => [
            'source_id',
            eb.fn.min('merchant_id').as('merchant_id'),
            eb.fn.countAll<bigint>().as('movements'),
            eb.fn.sum<bigint>('amount').as('amount'),
          ])
          .where('livemode', '=', livemode)
          .where('type', '=', sql.lit('adjustment'))
          .groupBy('source_id'),
      )
      .with('posted', (db) =>
        db
          .selectFrom('ledger_transactions as t')
          .innerJoin('postings as p', 'p.ledger_transaction_id', 't.id')
          .innerJoin('accounts as a', 'a.id', 'p.account_id')
          .select((eb) => [
            't.source_id',
            eb.fn.min('a.owner_id').filterWhere('a.kind', '=', sql.lit('available')).as('merchant_id'),
            eb.fn.count<bigint>('t.id').distinct().as('transactions'),
            eb.fn.sum<bigint>('p.amount').filterWhere('a.kind', '=', sql.lit('available')).as('amount'),
          ])
          .where('t.kind', '=', ADJUSTMENT_KIND)
          .where('a.livemode', '=', livemode)
          .groupBy('t.source_id'),
      )
      .with('named', (db) =>
        db
          .selectFrom('recorded as r')
          .fullJoin('moved as m', 'm.source_id', 'r.id')
          .select((eb) => [
            eb.fn.coalesce('r.id', 'm.source_id').as('id'),
            'r.merchant_id',
            'r.amount',
            'm.merchant_id as moved_merchant_id',
            'm.movements',
            'm.amount as moved',
          ]),
      )
      .selectFrom('named as n')
      .fullJoin('posted as p', 'p.source_id', 'n.id')
      .select((eb) => eb.fn.coalesce('n.id', 'p.source_id').as('id'))
      .where((eb) =>
        eb.not(
          eb.fn.coalesce(
            eb.and([
              eb('n.amount', 'is not', null),
              eb('n.movements', '=', sql.lit(1n)),
              eb('p.transactions', '=', sql.lit(1n)),
              eb('n.moved', '=', eb.ref('n.amount')),
              eb('p.amount', '=', eb.ref('n.amount')),
              eb('n.moved_merchant_id', '=', eb.ref('n.merchant_id')),
              eb('p.merchant_id', '=', eb.ref('n.merchant_id')),
            ]),
            eb.lit(false),
          ),
        ),
      )
      .orderBy(sql.lit(1))
      .$narrowType<{ id: string }>()
      .execute();
    const adjusted = await this.db
      .selectFrom('adjustments')
      .select((eb) => [
        eb.cast<number>(eb.fn.countAll(), 'integer').as('count'),
        eb.cast<bigint>(eb.fn.coalesce(eb.fn.sum('amount'), eb.lit(0)), 'bigint').as('total'),
      ])
      .where('livemode', '=', livemode)
      .executeTakeFirst();
    const balanceMismatches = await this.db
      .selectFrom('accounts as a')
      .leftJoin('postings as p', 'p.account_id', 'a.id')
      .select((eb) => [
        'a.owner_id',
        'a.kind',
        'a.balance',
        eb.cast<bigint>(eb.fn.coalesce(eb.fn.sum('p.amount'), eb.lit(0)), 'bigint').as('postings_total'),
      ])
      .where('a.livemode', '=', livemode)
      .groupBy('a.id')
      .having((eb) => eb('a.balance', '<>', eb.fn.coalesce(eb.fn.sum<bigint>('p.amount'), eb.lit(0))))
      .orderBy('a.owner_id')
      .orderBy('a.kind')
      .execute();
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
