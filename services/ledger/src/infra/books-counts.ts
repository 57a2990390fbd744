import { sql, type Kysely } from 'kysely';
import { PAYOUT_KINDS } from '../domain/payout';
import type { DB } from '../generated/database';

/**
 * Per payment, how many payment and fee movements it has (a credited payment has one of each at most): the
 * audit's and the books watch's count, each narrowing it to the payments it checks.
 */
export function creditMovementCounts(db: Kysely<DB>) {
  return db
    .selectFrom('balance_transactions')
    .select((eb) => [
      'source_id',
      eb
        .cast<number>(eb.fn.countAll().filterWhere('type', '=', sql.lit('payment')), 'integer')
        .as('payments'),
      eb.cast<number>(eb.fn.countAll().filterWhere('type', '=', sql.lit('fee')), 'integer').as('fees'),
    ])
    .where('type', 'in', [sql.lit('payment'), sql.lit('fee')])
    .groupBy('source_id');
}

/**
 * Per payout, how many reservations, payments and reversals its ledger transactions (`t`) record: the audit's
 * and the books watch's count, each narrowing it to the payouts it checks.
 */
export function payoutTransactionCounts(db: Kysely<DB>) {
  return db
    .selectFrom('ledger_transactions as t')
    .select((eb) => [
      't.source_id',
      eb
        .cast<number>(eb.fn.countAll().filterWhere('t.kind', '=', PAYOUT_KINDS.reservation), 'integer')
        .as('reservations'),
      eb
        .cast<number>(eb.fn.countAll().filterWhere('t.kind', '=', PAYOUT_KINDS.paid), 'integer')
        .as('releases'),
      eb
        .cast<number>(eb.fn.countAll().filterWhere('t.kind', '=', PAYOUT_KINDS.reversal), 'integer')
        .as('reversals'),
    ])
    .groupBy('t.source_id');
}
