import { traceHeaders, type SqlDatabase, type SqlTransaction } from '@sika/platform';

import type { DueFundReturn, FundReturnStore, FundReturnUnit } from '../app/ports';
import { lockFundReturn, recordFundReturnStep } from './sql-callback-store';

export class SqlFundReturnStore implements FundReturnStore {
  constructor(private readonly db: SqlDatabase) {}

  async recordRequest(
    tx: unknown,
    request: { txId: string; end2endId: string; livemode: boolean; amount: bigint; at: Date },
  ): Promise<'recorded' | 'known'> {
    const client = tx as SqlTransaction;
    const mode = request.livemode ? 'live' : 'test';
    // One statement: the transfer must be one this service received on that attempt (its PAIEMENT_RECU).
    const [row] = await client.$queryRaw<{ received: boolean; inserted: boolean }[]>`
      WITH received AS (
        SELECT 1 FROM scheme_callback_events
         WHERE mode = ${mode} AND ev_code = 'PAIEMENT_RECU' AND end2end_id = ${request.end2endId}
           AND tx_id = ${request.txId}),
      inserted AS (
        INSERT INTO fund_returns (livemode, end2end_id, tx_id, amount, status, attempts, next_attempt_at,
                                  created_at, updated_at, trace_context)
        SELECT ${request.livemode}::boolean, ${request.end2endId}::text, ${request.txId}::text,
               ${request.amount}::bigint, 'pending', 0, ${request.at}::timestamptz, ${request.at}::timestamptz,
               ${request.at}::timestamptz, ${JSON.stringify(traceHeaders())}::jsonb
         WHERE EXISTS (SELECT 1 FROM received)
        ON CONFLICT (livemode, end2end_id) DO NOTHING
        RETURNING 1)
      SELECT EXISTS (SELECT 1 FROM received) AS received, EXISTS (SELECT 1 FROM inserted) AS inserted`;
    if (!row?.received) {
      throw new Error(`no transfer ${request.end2endId} was received on ${request.txId}: nothing to return`);
    }
    return row.inserted ? 'recorded' : 'known';
  }

  claimDue(now: Date, limit: number, leaseMs: number): Promise<DueFundReturn[]> {
    const leaseEnd = new Date(now.getTime() + leaseMs);
    return this.db.$queryRaw<DueFundReturn[]>`
      UPDATE fund_returns SET next_attempt_at = ${leaseEnd}
       WHERE (livemode, end2end_id) IN (
         SELECT livemode, end2end_id FROM fund_returns
          WHERE status IN ('pending', 'rejected', 'sending') AND next_attempt_at <= ${now}
          ORDER BY next_attempt_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
      RETURNING tx_id AS "txId", livemode, end2end_id AS "end2endId", trace_context AS "traceContext"`;
  }

  inTransaction<T>(work: (unit: FundReturnUnit) => Promise<T>): Promise<T> {
    return this.db.$transaction((tx) =>
      work({
        lock: (fundReturn) => lockFundReturn(tx, fundReturn),
        recordStep: (fundReturn, step, reasonCode, at, sentAgain) =>
          recordFundReturnStep(tx, fundReturn, step, reasonCode, at, sentAgain),
      }),
    );
  }
}
