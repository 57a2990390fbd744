import { traceHeaders, type Database } from '@sika/platform';
import { sql, type Kysely } from 'kysely';

import type { DueFundReturn, FundReturnStore, FundReturnUnit, NewFundReturn } from '../app/ports';
import type { DB } from '../generated/database';
import { lockFundReturn, recordFundReturnStep } from './sql-callback-store';

/** Returns to send, as literals: the plan may use what the statistics know of each. */
const DUE_STATUSES = (['pending', 'rejected', 'sending'] as const).map((status) => sql.lit(status));

export class SqlFundReturnStore implements FundReturnStore {
  constructor(private readonly db: Database<DB>) {}

  async recordRequest(tx: unknown, request: NewFundReturn): Promise<'recorded' | 'known'> {
    const mode = request.livemode ? 'live' : 'test';
    // One statement: the transfer must be one this service received on that attempt (its PAIEMENT_RECU).
    const row = await (tx as Kysely<DB>)
      .with('received', (db) =>
        db
          .selectFrom('scheme_callback_events')
          .select(sql.lit(1).as('one'))
          .where('mode', '=', mode)
          .where('ev_code', '=', sql.lit('PAIEMENT_RECU'))
          .where('end2end_id', '=', request.end2endId)
          .where('tx_id', '=', request.txId),
      )
      .with('inserted', (db) =>
        db
          .insertInto('fund_returns')
          .columns([
            'livemode',
            'end2end_id',
            'tx_id',
            'amount',
            'status',
            'attempts',
            'next_attempt_at',
            'created_at',
            'updated_at',
            'trace_context',
          ])
          .expression(
            db
              .selectNoFrom((eb) => [
                eb.cast<boolean>(eb.val(request.livemode), 'boolean').as('livemode'),
                eb.cast<string>(eb.val(request.end2endId), 'text').as('end2end_id'),
                eb.cast<string>(eb.val(request.txId), 'text').as('tx_id'),
                eb.cast<bigint>(eb.val(request.amount), 'bigint').as('amount'),
                sql.lit('pending').as('status'),
                sql.lit(0).as('attempts'),
                eb.cast<Date>(eb.val(request.at), 'timestamptz').as('next_attempt_at'),
                eb.cast<Date>(eb.val(request.at), 'timestamptz').as('created_at'),
                eb.cast<Date>(eb.val(request.at), 'timestamptz').as('updated_at'),
                sql`${JSON.stringify(traceHeaders())}::jsonb`.as('trace_context'),
              ])
              .where((eb) => eb.exists(eb.selectFrom('received').select(sql.lit(1).as('one')))),
          )
          .onConflict((oc) => oc.columns(['livemode', 'end2end_id']).doNothing())
          .returning(sql.lit(1).as('one')),
      )
      .selectNoFrom((eb) => [
        eb.exists(eb.selectFrom('received').select(sql.lit(1).as('one'))).as('received'),
        eb.exists(eb.selectFrom('inserted').select(sql.lit(1).as('one'))).as('inserted'),
      ])
      .executeTakeFirst();
    if (!row?.received) {
      throw new Error(`no transfer ${request.end2endId} was received on ${request.txId}: nothing to return`);
    }
    return row.inserted ? 'recorded' : 'known';
  }

  async claimDue(now: Date, limit: number, leaseMs: number): Promise<DueFundReturn[]> {
    const leaseEnd = new Date(now.getTime() + leaseMs);
    return this.db
      .updateTable('fund_returns')
      .set({ next_attempt_at: leaseEnd })
      .where(({ eb, refTuple, selectFrom }) =>
        eb(
          refTuple('livemode', 'end2end_id'),
          'in',
          selectFrom('fund_returns')
            .select(['livemode', 'end2end_id'])
            .where('status', 'in', DUE_STATUSES)
            .where('next_attempt_at', '<=', now)
            .orderBy('next_attempt_at')
            .limit(limit)
            .forUpdate()
            .skipLocked()
            .$asTuple('livemode', 'end2end_id'),
        ),
      )
      .returning(['tx_id as txId', 'livemode', 'end2end_id as end2endId', 'trace_context as traceContext'])
      .execute();
  }

  inTransaction<T>(work: (unit: FundReturnUnit) => Promise<T>): Promise<T> {
    return this.db.transact((tx) =>
      work({
        lock: (fundReturn) => lockFundReturn(tx, fundReturn),
        recordStep: (fundReturn, step, reasonCode, at, sentAgain) =>
          recordFundReturnStep(tx, fundReturn, step, reasonCode, at, sentAgain),
      }),
    );
  }
}
