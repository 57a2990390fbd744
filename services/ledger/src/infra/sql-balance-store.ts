import type { SqlDatabase } from '@sika/platform';
import type { BalanceStore, BalanceTransactionQuery, ListCursor, PayableBalance } from '../app/ports';
import type { MerchantAccountKind, SystemAccountKind } from '../domain/accounts';
import type { BalanceTransaction } from '../domain/balance-transaction';
import { COLLECTION_TIME_ZONE, type CollectionRange, type DailyCollection } from '../domain/collections';
import type { Scope } from '@sika/platform/pure';
import { merchantAccountTotals, systemAccountTotal } from './account-balances';
import { toBalanceTransaction, type BalanceTransactionRow } from './balance-transaction-row';

/** The reads of balances and movements: merchants' and Sika's balances, the movements' list, daily collections. */
export class SqlBalanceStore implements BalanceStore {
  constructor(private readonly db: Pick<SqlDatabase, '$queryRaw'>) {}

  async listPayableBalances(query: {
    livemode: boolean;
    after?: string;
    take: number;
  }): Promise<PayableBalance[]> {
    const after = query.after ?? '';
    // In merchant id order along accounts_owner_livemode_kind_key; no index holds the balance, whose updates
    // then stay on their page (HOT).
    const rows = await this.db.$queryRaw<{ merchant_id: string; available: bigint }[]>`
      SELECT owner_id AS merchant_id, balance AS available
        FROM accounts
       WHERE livemode = ${query.livemode} AND kind = 'available' AND owner_id > ${after} AND balance > 0
       ORDER BY owner_id
       LIMIT ${query.take}`;
    return rows.map((row) => ({ merchantId: row.merchant_id, available: row.available }));
  }

  systemAccountTotal(livemode: boolean, kind: SystemAccountKind): Promise<bigint> {
    return systemAccountTotal(this.db, livemode, kind);
  }

  merchantAccountTotals(scope: Scope): Promise<Map<MerchantAccountKind, bigint>> {
    return merchantAccountTotals(this.db, scope);
  }

  async findCursor(scope: Scope, balanceTransactionId: string): Promise<ListCursor | undefined> {
    const [row] = await this.db.$queryRaw<{ created_at: Date; seq: bigint }[]>`
      SELECT created_at, seq FROM balance_transactions
       WHERE id = ${balanceTransactionId} AND merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}`;
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
    const rows = await this.db.$queryRaw<BalanceTransactionRow[]>`
      SELECT id, merchant_id, livemode, type, amount, currency, source_id, created_at
        FROM balance_transactions
       WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}
         AND (${type}::text IS NULL OR type = ${type})
         AND (${createdFrom}::timestamptz IS NULL OR created_at >= ${createdFrom})
         AND (${createdTo}::timestamptz IS NULL OR created_at < ${createdTo})
         AND (${afterCreatedAt}::timestamptz IS NULL OR (created_at, seq) < (${afterCreatedAt}, ${afterSeq}))
       ORDER BY created_at DESC, seq DESC
       LIMIT ${query.take}`;
    return rows.map(toBalanceTransaction);
  }

  async dailyCollections(scope: Scope, range: CollectionRange): Promise<DailyCollection[]> {
    // A range scan of balance_transactions_list_idx (merchant_id, livemode, created_at); a fee is written
    // at the same instant as its payment, so both fall on the same day.
    const rows = await this.db.$queryRaw<
      { day: string; collected: bigint; fees: bigint; payment_count: bigint }[]
    >`
      SELECT to_char(created_at AT TIME ZONE ${COLLECTION_TIME_ZONE}, 'YYYY-MM-DD') AS day,
             COALESCE(SUM(amount) FILTER (WHERE type = 'payment'), 0)::bigint AS collected,
             COALESCE(-SUM(amount) FILTER (WHERE type = 'fee'), 0)::bigint AS fees,
             COUNT(*) FILTER (WHERE type = 'payment')::bigint AS payment_count
        FROM balance_transactions
       WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}
         AND created_at >= ${range.from} AND created_at < ${range.to}
         AND type IN ('payment', 'fee')
       GROUP BY 1
       ORDER BY 1`;
    return rows.map((row) => ({
      day: row.day,
      collected: row.collected,
      fees: row.fees,
      paymentCount: row.payment_count,
    }));
  }
}
