import { PreparedQuery, StatementBatcher } from '@sika/platform';
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

/** The arrays of insertAll's statement: one per column of its requests. */
interface NewRowValues {
  txId: string[];
  livemode: boolean[];
  amount: string[];
  fingerprint: string[];
  payerAliasMasked: string[];
  onDelivery: boolean[];
  watchUntil: (Date | null)[];
  at: Date[];
}

/** An outcome as the batch's UPDATE unnests it. */
type OutcomeUpdateRow = Pick<
  Selectable<DB['payment_requests']>,
  'tx_id' | 'outcome' | 'reason_code' | 'end2end_id'
> & {
  at: Date;
};

/** The arrays of recordOutcomes' statement: one per column of its outcomes. */
interface OutcomeUpdateValues {
  txId: string[];
  outcome: string[];
  reasonCode: (string | null)[];
  end2endId: (string | null)[];
  at: Date[];
}

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
  /** insertAll's statement, compiled once (PreparedQuery): it runs for every payment request. */
  private readonly insertStatement = new PreparedQuery<NewRowValues, InsertedRow>((_param, values) =>
    this.insertStatementOf(values),
  );
  /** recordOutcomes' statement, compiled once (PreparedQuery): it runs for every scheme answer. */
  private readonly outcomesStatement = new PreparedQuery<OutcomeUpdateValues, OutcomeRow & { tx_id: string }>(
    (_param, values) => this.outcomesStatementOf(values),
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
    const rows = await this.insertStatement.execute(this.db, {
      txId: column((r) => r.txId),
      livemode: column((r) => r.livemode),
      amount: column((r) => r.amount.toString()),
      fingerprint: column((r) => r.fingerprint),
      payerAliasMasked: column((r) => r.payerAliasMasked),
      onDelivery: column((r) => r.onDelivery),
      watchUntil: column((r) => r.watchUntil),
      at: column((r) => r.at),
    });
    const created = new Map(rows.map((row) => [row.tx_id, row]));
    return requests.map((request) => {
      const row = created.get(request.txId);
      created.delete(request.txId);
      return row;
    });
  }

  /** insertAll's one statement, on the arrays of its requests (NewRowValues). */
  private insertStatementOf(v: NewRowValues) {
    return this.db
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
            sql<NewRow>`unnest((SELECT ${v.txId}::text[]), (SELECT ${v.livemode}::boolean[]),
                    (SELECT ${v.amount}::bigint[]),
                    (SELECT ${v.fingerprint}::text[]),
                    (SELECT ${v.payerAliasMasked}::text[]),
                    (SELECT ${v.onDelivery}::boolean[]),
                    (SELECT ${v.watchUntil}::timestamptz[]),
                    (SELECT ${v.at}::timestamptz[]))`.as<'r'>(
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
      .returning(STORED);
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
    const rows = await this.outcomesStatement.execute(this.db, {
      txId: column((u) => u.txId),
      outcome: column((u) => u.outcome.outcome),
      reasonCode: column((u) => (u.outcome.outcome === 'REJECTED' ? u.outcome.reasonCode : null)),
      end2endId: column((u) => u.end2endId ?? null),
      at: column((u) => u.at),
    });
    const recorded = new Map(rows.map((row) => [row.tx_id, row]));
    return updates.map((update) => recorded.get(update.txId));
  }

  /** recordOutcomes' one statement, on the arrays of its outcomes (OutcomeUpdateValues). */
  private outcomesStatementOf(v: OutcomeUpdateValues) {
    return this.db
      .updateTable('payment_requests as p')
      .from(
        sql<OutcomeUpdateRow>`unnest((SELECT ${v.txId}::text[]), (SELECT ${v.outcome}::text[]),
                    (SELECT ${v.reasonCode}::text[]),
                    (SELECT ${v.end2endId}::text[]),
                    (SELECT ${v.at}::timestamptz[]))`.as<'r'>(
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
      .returning(['p.tx_id', 'p.outcome', 'p.reason_code']);
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
