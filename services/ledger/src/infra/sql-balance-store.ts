import { sql, type Kysely, type SqlBool } from 'kysely';
import type { BalanceStore, BalanceTransactionQuery, ListCursor, PayableBalance } from '../app/ports';
import type { MerchantAccountKind, SystemAccountKind } from '../domain/accounts';
import type { BalanceTransaction } from '../domain/balance-transaction';
import { COLLECTION_TIME_ZONE, type CollectionRange, type DailyCollection } from '../domain/collections';
import type { DB } from '../generated/database';
import type { Scope } from '@sika/platform/pure';
import { merchantAccountTotals, systemAccountTotal } from './account-balances';
import { BALANCE_TRANSACTION_COLUMNS, toBalanceTransaction } from './balance-transaction-row';

/** The reads of balances and movements: merchants' and Sika's balances, the movements' list, daily collections. */
export class SqlBalanceStore implements BalanceStore {
  constructor(private readonly db: Kysely<DB>) {}

  async listPayableBalances(query: {
    livemode: boolean;
    after?: string;
    take: number;
  }): Promise<PayableBalance[]> {
    // In merchant id order along accounts_owner_livemode_kind_key; no index holds the balance, whose updates
    // then stay on their page (HOT).
    const rows = await this.db
      .selectFrom('accounts')
      .select(['owner_id', 'balance'])
      .where('livemode', '=', query.livemode)
      .where('kind', '=', sql.lit('available'))
      .where('owner_id', '>', query.after ?? '')
      .where('balance', '>', sql.lit(0n))
      .orderBy('owner_id')
      .limit(query.take)
      .execute();
    return rows.map((row) => ({ merchantId: row.owner_id, available: row.balance }));
  }

  systemAccountTotal(livemode: boolean, kind: SystemAccountKind): Promise<bigint> {
    return systemAccountTotal(this.db, livemode, kind);
  }

  merchantAccountTotals(scope: Scope): Promise<Map<MerchantAccountKind, bigint>> {
    return merchantAccountTotals(this.db, scope);
  }

  async findCursor(scope: Scope, balanceTransactionId: string): Promise<ListCursor | undefined> {
    const row = await this.db
      .selectFrom('balance_transactions')
      .select(['created_at', 'seq'])
      .where('id', '=', balanceTransactionId)
      .where('merchant_id', '=', scope.merchantId)
      .where('livemode', '=', scope.livemode)
      .executeTakeFirst();
    return row && { createdAt: row.created_at, seq: row.seq };
  }

  async listBalanceTransactions(query: BalanceTransactionQuery): Promise<BalanceTransaction[]> {
    const { scope, after } = query;
    const type = query.type ?? null;
    const createdFrom = query.createdFrom ?? null;
    const createdTo = query.createdTo ?? null;
    const afterCreatedAt = after?.createdAt ?? null;
    const afterSeq = after?.seq ?? null;
    // (created_at, seq) is the list order of balance_transactions_list_idx: the page resumes below the cursor.
    // An absent filter is a null parameter, so that every query is one statement text (one prepared statement).
    const rows = await this.db
      .selectFrom('balance_transactions')
      .select(BALANCE_TRANSACTION_COLUMNS)
      .where('merchant_id', '=', scope.merchantId)
      .where('livemode', '=', scope.livemode)
      .where((eb) =>
        eb.and([
          eb.or([eb(eb.cast(eb.val(type), 'text'), 'is', null), eb('type', '=', type)]),
          eb.or([
            eb(eb.cast(eb.val(createdFrom), 'timestamptz'), 'is', null),
            eb('created_at', '>=', createdFrom),
          ]),
          eb.or([
            eb(eb.cast(eb.val(createdTo), 'timestamptz'), 'is', null),
            eb('created_at', '<', createdTo),
          ]),
          eb.or([
            eb(eb.cast(eb.val(afterCreatedAt), 'timestamptz'), 'is', null),
            // A row comparison: the builder's tuples take no null, which an absent cursor is.
            sql<SqlBool>`(${eb.ref('created_at')}, ${eb.ref('seq')}) < (${afterCreatedAt}, ${afterSeq})`,
          ]),
        ]),
      )
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(query.take)
      .execute();
    return rows.map(toBalanceTransaction);
  }

  async dailyCollections(scope: Scope, range: CollectionRange): Promise<DailyCollection[]> {
    // A range scan of balance_transactions_list_idx (merchant_id, livemode, created_at); a fee is written
    // at the same instant as its payment, so both fall on the same day.
    const rows = await this.db
      .selectFrom('balance_transactions')
      .select((eb) => [
        sql<string>`to_char(${eb.ref('created_at')} AT TIME ZONE ${COLLECTION_TIME_ZONE}, 'YYYY-MM-DD')`.as(
          'day',
        ),
        eb
          .cast<bigint>(
            eb.fn.coalesce(eb.fn.sum('amount').filterWhere('type', '=', sql.lit('payment')), eb.lit(0)),
            'bigint',
          )
          .as('collected'),
        eb
          .cast<bigint>(
            eb.fn.coalesce(eb.neg(eb.fn.sum('amount').filterWhere('type', '=', sql.lit('fee'))), eb.lit(0)),
            'bigint',
          )
          .as('fees'),
        eb
          .cast<bigint>(eb.fn.countAll().filterWhere('type', '=', sql.lit('payment')), 'bigint')
          .as('payment_count'),
      ])
      .where('merchant_id', '=', scope.merchantId)
      .where('livemode', '=', scope.livemode)
      .where('created_at', '>=', range.from)
      .where('created_at', '<', range.to)
      .where('type', 'in', [sql.lit('payment'), sql.lit('fee')])
      .groupBy(sql.lit(1))
      .orderBy(sql.lit(1))
      .execute();
    return rows.map((row) => ({
      day: row.day,
      collected: row.collected,
      fees: row.fees,
      paymentCount: row.payment_count,
    }));
  }
}
