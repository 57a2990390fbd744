import type { SqlDatabase, SqlTransaction } from '@sika/platform';

import type { DueFundReturn, FundReturnStore, FundReturnUnit } from '../app/ports';
import { lockFundReturn, recordFundReturnStep } from './callback-store';

export class SqlFundReturnStore implements FundReturnStore {
  constructor(private readonly db: SqlDatabase) {}

  async recordRequest(
    tx: unknown,
    request: { txId: string; livemode: boolean; amount: bigint; at: Date },
  ): Promise<'recorded' | 'known'> {
    const client = tx as SqlTransaction;
    // One statement: the return names the end-to-end id of the transfer that paid the attempt, if any.
    const [row] = await client.$queryRaw<{ paid: boolean; inserted: boolean }[]>`
      WITH paid AS (
        SELECT payment_end2end_id FROM payment_requests
         WHERE tx_id = ${request.txId} AND livemode = ${request.livemode} AND payment_end2end_id IS NOT NULL),
      inserted AS (
        INSERT INTO fund_returns (tx_id, livemode, end2end_id, amount, status, attempts, next_attempt_at,
                                  created_at, updated_at)
        SELECT ${request.txId}::text, ${request.livemode}::boolean, payment_end2end_id, ${request.amount}::bigint,
               'pending', 0, ${request.at}::timestamptz, ${request.at}::timestamptz, ${request.at}::timestamptz
          FROM paid
        ON CONFLICT (tx_id) DO NOTHING
        RETURNING 1)
      SELECT EXISTS (SELECT 1 FROM paid) AS paid, EXISTS (SELECT 1 FROM inserted) AS inserted`;
    if (!row?.paid) {
      throw new Error(`no payment was received on ${request.txId}: nothing to return`);
    }
    return row.inserted ? 'recorded' : 'known';
  }

  claimDue(now: Date, limit: number, leaseMs: number): Promise<DueFundReturn[]> {
    const leaseEnd = new Date(now.getTime() + leaseMs);
    return this.db.$queryRaw<DueFundReturn[]>`
      UPDATE fund_returns SET next_attempt_at = ${leaseEnd}
       WHERE tx_id IN (
         SELECT tx_id FROM fund_returns
          WHERE status IN ('pending', 'rejected', 'sending') AND next_attempt_at <= ${now}
          ORDER BY next_attempt_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
      RETURNING tx_id AS "txId", livemode, end2end_id AS "end2endId"`;
  }

  inTransaction<T>(work: (unit: FundReturnUnit) => Promise<T>): Promise<T> {
    return this.db.$transaction((tx) =>
      work({
        lock: (txId) => lockFundReturn(tx, { txId }),
        recordStep: (fundReturn, step, reasonCode, at, sentAgain) =>
          recordFundReturnStep(tx, fundReturn, step, reasonCode, at, sentAgain),
      }),
    );
  }
}
