import { StatementBatcher } from '@sika/platform';
import { sql, type Kysely, type Selectable } from 'kysely';

import type {
  NewPaymentRequest,
  PaymentRequestStore,
  StoredPaymentRequest,
  WatchedInvoice,
} from '../app/ports';
import type { RequestOutcome } from '../domain/payment-request';
import type { DB } from '../generated/database';

type OutcomeRow = Pick<Selectable<DB['payment_requests']>, 'outcome' | 'reason_code'>;

function outcomeFrom(row: OutcomeRow): RequestOutcome | null {
  if (row.outcome === 'SENT') return { outcome: 'SENT' };
  if (row.outcome === 'REJECTED') return { outcome: 'REJECTED', reasonCode: row.reason_code ?? '' };
  return null;
}

/** An outcome to record, as recordOutcome is given it. */
interface OutcomeUpdate {
  txId: string;
  outcome: RequestOutcome;
  end2endId: string | undefined;
  at: Date;
}

/** What a recorded request answers with. */
const STORED = ['tx_id', 'fingerprint', 'outcome', 'reason_code'] as const;
type InsertedRow = Pick<Selectable<DB['payment_requests']>, (typeof STORED)[number]>;

/** A request as the batch's INSERT unnests it. */
type NewRow = Pick<
  Selectable<DB['payment_requests']>,
  'tx_id' | 'livemode' | 'amount' | 'fingerprint' | 'payer_alias_masked' | 'on_delivery' | 'watch_until'
> & { at: Date };

/** An outcome as the batch's UPDATE unnests it. */
type OutcomeUpdateRow = Pick<
  Selectable<DB['payment_requests']>,
  'tx_id' | 'outcome' | 'reason_code' | 'end2end_id'
> & {
  at: Date;
};

/** Requests or outcomes one statement records at most. */
const MAX_BATCH = 100;

/**
 * Requests are recorded before they are sent and their outcomes once the scheme answered, each by a statement
 * that records every one arriving in the same turn of the event loop (StatementBatcher): under load one
 * statement and one commit serve many requests, and each caller goes on only once its own row is committed.
 */
export class SqlPaymentRequestStore implements PaymentRequestStore {
  private readonly inserts = new StatementBatcher(
    (requests: readonly NewPaymentRequest[]) => this.insertAll(requests),
    { maxBatchSize: MAX_BATCH },
  );
  private readonly outcomes = new StatementBatcher(
    (updates: readonly OutcomeUpdate[]) => this.recordOutcomes(updates),
    { maxBatchSize: MAX_BATCH },
  );

  constructor(private readonly db: Kysely<DB>) {}

  async recordIfAbsent(
    request: NewPaymentRequest,
  ): Promise<{ created: boolean; stored: StoredPaymentRequest }> {
    const inserted = await this.inserts.write(request);
    // The known row is read by a statement of its own: one a concurrent call just committed is invisible to
    // the INSERT's snapshot.
    const row =
      inserted ??
      (await this.db
        .selectFrom('payment_requests')
        .select(STORED)
        .where('tx_id', '=', request.txId)
        .executeTakeFirst());
    if (!row) throw new Error(`payment request ${request.txId} is neither new nor stored`);
    return {
      created: inserted !== undefined,
      stored: { txId: request.txId, fingerprint: row.fingerprint, outcome: outcomeFrom(row) },
    };
  }

  /**
   * ON CONFLICT DO NOTHING rather than catching a unique violation: concurrent calls with the same txId all
   * succeed, and exactly one of them learns it created the row (within a batch, the first with that txId,
   * whose row the INSERT wrote first). The arrays are unnested from sub-selects so that the plan stays generic.
   */
  private async insertAll(requests: readonly NewPaymentRequest[]): Promise<(InsertedRow | undefined)[]> {
    const column = <T>(of: (request: NewPaymentRequest) => T): T[] => requests.map(of);
    const rows = await this.db
      .insertInto('payment_requests')
      .columns([
        'tx_id',
        'livemode',
        'amount',
        'fingerprint',
        'payer_alias_masked',
        'on_delivery',
        'watch_until',
        'created_at',
        'updated_at',
      ])
      .expression((eb) =>
        eb
          .selectFrom(
            sql<NewRow>`unnest((SELECT ${column((r) => r.txId)}::text[]), (SELECT ${column((r) => r.livemode)}::boolean[]),
                    (SELECT ${column((r) => r.amount.toString())}::bigint[]),
                    (SELECT ${column((r) => r.fingerprint)}::text[]),
                    (SELECT ${column((r) => r.payerAliasMasked)}::text[]),
                    (SELECT ${column((r) => r.onDelivery)}::boolean[]),
                    (SELECT ${column((r) => r.watchUntil)}::timestamptz[]),
                    (SELECT ${column((r) => r.at)}::timestamptz[]))`.as<'r'>(
              sql`r (tx_id, livemode, amount, fingerprint, payer_alias_masked, on_delivery, watch_until, at)`,
            ),
          )
          .select([
            'r.tx_id',
            'r.livemode',
            'r.amount',
            'r.fingerprint',
            'r.payer_alias_masked',
            'r.on_delivery',
            'r.watch_until',
            'r.at as created_at',
            'r.at as updated_at',
          ]),
      )
      .onConflict((oc) => oc.column('tx_id').doNothing())
      .returning(STORED)
      .execute();
    const created = new Map(rows.map((row) => [row.tx_id, row]));
    return requests.map((request) => {
      const row = created.get(request.txId);
      created.delete(request.txId);
      return row;
    });
  }

  async recordOutcome(
    txId: string,
    outcome: RequestOutcome,
    end2endId: string | undefined,
    at: Date,
  ): Promise<RequestOutcome> {
    // The first outcome wins: when one was recorded already, the UPDATE leaves the row and it is read.
    const row =
      (await this.outcomes.write({ txId, outcome, end2endId, at })) ??
      (await this.db
        .selectFrom('payment_requests')
        .select(['outcome', 'reason_code'])
        .where('tx_id', '=', txId)
        .executeTakeFirst());
    const recorded = row ? outcomeFrom(row) : null;
    if (!recorded) throw new Error(`payment request ${txId} has no outcome after recording one`);
    return recorded;
  }

  /** Within a batch, outcomes for the same txId: one applies, and each of them is answered with it. */
  private async recordOutcomes(updates: readonly OutcomeUpdate[]): Promise<(OutcomeRow | undefined)[]> {
    const column = <T>(of: (update: OutcomeUpdate) => T): T[] => updates.map(of);
    const rows = await this.db
      .updateTable('payment_requests as p')
      .from(
        sql<OutcomeUpdateRow>`unnest((SELECT ${column((u) => u.txId)}::text[]), (SELECT ${column((u) => u.outcome.outcome)}::text[]),
                    (SELECT ${column((u) => (u.outcome.outcome === 'REJECTED' ? u.outcome.reasonCode : null))}::text[]),
                    (SELECT ${column((u) => u.end2endId ?? null)}::text[]),
                    (SELECT ${column((u) => u.at)}::timestamptz[]))`.as<'r'>(
          sql`r (tx_id, outcome, reason_code, end2end_id, at)`,
        ),
      )
      .set((eb) => ({
        outcome: eb.ref('r.outcome'),
        reason_code: eb.ref('r.reason_code'),
        end2end_id: eb.fn.coalesce('r.end2end_id', 'p.end2end_id'),
        updated_at: eb.ref('r.at'),
      }))
      .whereRef('p.tx_id', '=', 'r.tx_id')
      .where('p.outcome', 'is', null)
      .returning(['p.tx_id', 'p.outcome', 'p.reason_code'])
      .execute();
    const recorded = new Map(rows.map((row) => [row.tx_id, row]));
    return updates.map((update) => recorded.get(update.txId));
  }

  async invoicesToWatch(now: Date, limit: number): Promise<WatchedInvoice[]> {
    const rows = await this.db
      .selectFrom('payment_requests')
      .select(['tx_id', 'livemode'])
      .where((eb) => eb.ref('on_delivery'))
      .where('outcome', '=', sql.lit('SENT'))
      .where('decision', 'is', null)
      .where('watch_until', '>', now)
      .orderBy('checked_at', (ob) => ob.asc().nullsFirst())
      .limit(limit)
      .execute();
    return rows.map((row) => ({ txId: row.tx_id, livemode: row.livemode }));
  }

  async markChecked(txId: string, at: Date): Promise<void> {
    await this.db.updateTable('payment_requests').set({ checked_at: at }).where('tx_id', '=', txId).execute();
  }
}
