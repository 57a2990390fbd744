import { FUND_RETURN_UPDATES, outboxMessage, PAYMENT_REQUEST_UPDATES, pspV1 } from '@sika/contracts';
import { enqueue, outboxRows, type OutboxRows } from '@sika/messaging';
import { firstOfEachKey, PreparedQuery, StatementBatcher, traceHeaders, type Database } from '@sika/platform';
import { sql, type Kysely, type Selectable } from 'kysely';

import type { CallbackEventReceipt, CallbackStore, CallbackUnit, LockedFundReturn } from '../app/ports';
import type { FundReturnOutcome, FundReturnStatus, FundReturnStep } from '../domain/fund-return';
import type { Mode } from '../domain/mode';
import { isPayerDecision, type PayerDecision, type PaymentRequestUpdate } from '../domain/payment-request';
import type { DB } from '../generated/database';
import { lockPayoutTransfer, recordPayoutTransferStep } from './sql-payout-transfer-store';

const PROTO_DECISION: Record<PayerDecision, pspV1.PayerDecision> = {
  PAID: pspV1.PayerDecision.PAYER_DECISION_PAID,
  ACCEPTED_DEFERRED: pspV1.PayerDecision.PAYER_DECISION_ACCEPTED_DEFERRED,
  REJECTED: pspV1.PayerDecision.PAYER_DECISION_REJECTED,
  EXPIRED: pspV1.PayerDecision.PAYER_DECISION_EXPIRED,
  FAILED: pspV1.PayerDecision.PAYER_DECISION_FAILED,
};

function toProto(update: PaymentRequestUpdate): pspV1.PaymentRequestUpdated {
  return {
    livemode: update.livemode,
    txId: update.txId,
    decision: PROTO_DECISION[update.decision],
    amount: update.amount,
    occurredAt: update.occurredAt,
    payeeMismatch: update.payeeMismatch,
    ...(update.reasonCode !== undefined && { reasonCode: update.reasonCode }),
    ...(update.endToEndId !== undefined && { endToEndId: update.endToEndId }),
  };
}

function unitOf(tx: Kysely<DB>): CallbackUnit {
  return {
    async lockRequest(mode: Mode, txId: string) {
      const row = await tx
        .selectFrom('payment_requests')
        .select('decision')
        .where('tx_id', '=', txId)
        .where('livemode', '=', mode === 'live')
        .forUpdate()
        .executeTakeFirst();
      if (!row) return null;
      return { decision: row.decision !== null && isPayerDecision(row.decision) ? row.decision : null };
    },

    async recordEvent(receipt: CallbackEventReceipt) {
      const { numInsertedOrUpdatedRows } = await tx
        .insertInto('scheme_callback_events')
        .values({
          mode: receipt.mode,
          ev_code: receipt.evCode,
          end2end_id: receipt.end2endId,
          occurrence: receipt.occurrence,
          tx_id: receipt.txId,
          event: sql`${JSON.stringify(receipt.event)}::jsonb`,
          effect: receipt.effect,
          received_at: receipt.receivedAt,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirstOrThrow();
      return numInsertedOrUpdatedRows === 1n;
    },

    async recordDecision(txId, decision, reasonCode, paymentEnd2endId, at) {
      await tx
        .updateTable('payment_requests')
        .set((eb) => ({
          decision,
          decision_reason: reasonCode ?? null,
          payment_end2end_id: eb.fn.coalesce(
            eb.cast<string | null>(eb.val(paymentEnd2endId ?? null), 'text'),
            'payment_end2end_id',
          ),
          updated_at: at,
        }))
        .where('tx_id', '=', txId)
        .execute();
    },

    async publish(update) {
      await enqueue(
        tx,
        outboxMessage(PAYMENT_REQUEST_UPDATES, toProto(update), PAYMENT_REQUEST_UPDATES.routingKey),
      );
    },

    lockTransfer: (mode, payoutId) => lockPayoutTransfer(tx, payoutId, mode === 'live'),

    recordTransferStep: (transfer, step, details, at) =>
      recordPayoutTransferStep(tx, transfer, step, details, at),

    lockFundReturn: (mode, end2endId) => lockFundReturn(tx, { livemode: mode === 'live', end2endId }),

    recordFundReturnStep: (fundReturn, step, reasonCode, at) =>
      recordFundReturnStep(tx, fundReturn, step, reasonCode, at),
  };
}

const FUND_RETURN_OUTCOMES: Record<FundReturnOutcome, pspV1.FundReturnStatus> = {
  SENT: pspV1.FundReturnStatus.FUND_RETURN_STATUS_SENT,
  ABANDONED: pspV1.FundReturnStatus.FUND_RETURN_STATUS_ABANDONED,
};

/** The fund return of a transfer, by its mode and end-to-end id, locked. */
export async function lockFundReturn(
  tx: Kysely<DB>,
  key: { livemode: boolean; end2endId: string },
): Promise<LockedFundReturn | null> {
  const row = await tx
    .selectFrom('fund_returns')
    .select(['tx_id', 'status', 'attempts'])
    .where('livemode', '=', key.livemode)
    .where('end2end_id', '=', key.end2endId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return null;
  return {
    ...key,
    txId: row.tx_id,
    state: { status: row.status as FundReturnStatus, attempts: row.attempts },
  };
}

/** Saves a step of a return and, when it ended, psp.fund_return.updated in the same transaction. */
export async function recordFundReturnStep(
  tx: Kysely<DB>,
  fundReturn: LockedFundReturn,
  step: FundReturnStep,
  reasonCode: string | undefined,
  at: Date,
  sentAgain = false,
): Promise<void> {
  const row = await tx
    .updateTable('fund_returns')
    .set((eb) => ({
      status: step.status,
      attempts: eb(
        'attempts',
        '+',
        eb
          .case()
          .when(eb.cast<boolean>(eb.val(sentAgain), 'boolean'))
          .then(sql.lit(1))
          .else(sql.lit(0))
          .end(),
      ),
      next_attempt_at: eb.fn.coalesce(
        eb.cast<Date | null>(eb.val(step.nextAttemptAt), 'timestamptz'),
        'next_attempt_at',
      ),
      last_reason: eb.fn.coalesce(eb.cast<string | null>(eb.val(reasonCode ?? null), 'text'), 'last_reason'),
      updated_at: at,
    }))
    .where('livemode', '=', fundReturn.livemode)
    .where('end2end_id', '=', fundReturn.end2endId)
    .returning('amount')
    .executeTakeFirst();
  if (!row) throw new Error(`fund return of ${fundReturn.end2endId} vanished while locked`);
  if (step.outcome === null) return;
  const update: pspV1.FundReturnUpdated = {
    livemode: fundReturn.livemode,
    txId: fundReturn.txId,
    endToEndId: fundReturn.end2endId,
    status: FUND_RETURN_OUTCOMES[step.outcome],
    amount: row.amount,
    occurredAt: at,
    ...(reasonCode !== undefined && { reasonCode }),
  };
  await enqueue(tx, outboxMessage(FUND_RETURN_UPDATES, update, FUND_RETURN_UPDATES.routingKey));
}

/** A first decision to record, as recordFirstDecision is given it. */
interface FirstDecision {
  receipt: CallbackEventReceipt;
  update: PaymentRequestUpdate;
  paymentEnd2endId: string | undefined;
  /** The callback's trace context, taken as it arrives: the batch's statement runs in the first one's. */
  traceContext: Record<string, string>;
}

/** A row of the first decisions' statement: the decision, its event and its news, numbered from 1. */
type DecidedRow = Pick<
  Selectable<DB['payment_requests']>,
  'tx_id' | 'livemode' | 'decision' | 'payment_end2end_id'
> &
  Pick<
    Selectable<DB['scheme_callback_events']>,
    'mode' | 'ev_code' | 'end2end_id' | 'occurrence' | 'event' | 'effect' | 'received_at'
  > &
  Pick<Selectable<DB['outbox']>, 'routing_key' | 'type' | 'payload' | 'headers'> & {
    reason_code: string | null;
    event_tx_id: string;
    message_id: string;
    n: bigint;
  };

/** The arrays of recordFirstDecisions' statement: one per column of its decisions, events and news. */
interface FirstDecisionValues {
  txId: PaymentRequestUpdate['txId'][];
  livemode: PaymentRequestUpdate['livemode'][];
  decision: PaymentRequestUpdate['decision'][];
  reasonCode: (string | null)[];
  paymentEnd2endId: (string | null)[];
  mode: CallbackEventReceipt['mode'][];
  evCode: CallbackEventReceipt['evCode'][];
  end2endId: CallbackEventReceipt['end2endId'][];
  occurrence: CallbackEventReceipt['occurrence'][];
  eventTxId: CallbackEventReceipt['txId'][];
  event: string[];
  effect: CallbackEventReceipt['effect'][];
  receivedAt: CallbackEventReceipt['receivedAt'][];
  news: OutboxRows;
}

/** First decisions one statement records at most. */
const MAX_BATCH = 100;

/**
 * Callbacks in transactions, and the usual callback's first decision in a statement of its own that records
 * every first decision arriving in the same turn of the event loop (StatementBatcher): under load one
 * statement and one commit serve many callbacks, and each goes on only once its own decision is committed.
 */
export class SqlCallbackStore implements CallbackStore {
  private readonly firstDecisions = new StatementBatcher(
    (decisions: readonly FirstDecision[]) => this.recordFirstDecisions(decisions),
    { maxBatchSize: MAX_BATCH },
  );

  /** recordFirstDecisions' statement, compiled once (PreparedQuery): the usual callback runs it. */
  private readonly firstDecisionsStatement = new PreparedQuery<FirstDecisionValues, { n: bigint }>(
    (_param, values) => this.firstDecisionsStatementOf(values),
  );

  /** A Kysely of its own besides the Database's transactions: a test counts the statements sent through it. */
  constructor(private readonly db: Kysely<DB> & Pick<Database<DB>, 'transact'>) {}

  inTransaction<T>(work: (unit: CallbackUnit) => Promise<T>): Promise<T> {
    return this.db.transact((tx) => work(unitOf(tx)));
  }

  async recordFirstDecision(
    receipt: CallbackEventReceipt,
    update: PaymentRequestUpdate,
    paymentEnd2endId: string | undefined,
  ): Promise<boolean> {
    try {
      const traceContext = traceHeaders();
      return await this.firstDecisions.write({ receipt, update, paymentEnd2endId, traceContext });
    } catch (error) {
      if (isRecordedEvent(error)) return false;
      throw error;
    }
  }

  async deleteEventsReceivedBefore(before: Date, limit: number): Promise<number> {
    const { numDeletedRows } = await this.db
      .deleteFrom('scheme_callback_events')
      .where(({ eb, refTuple, selectFrom }) =>
        eb(
          refTuple('mode', 'ev_code', 'end2end_id', 'occurrence'),
          'in',
          selectFrom('scheme_callback_events')
            .select(['mode', 'ev_code', 'end2end_id', 'occurrence'])
            .where('received_at', '<', before)
            .limit(limit)
            .$asTuple('mode', 'ev_code', 'end2end_id', 'occurrence'),
        ),
      )
      .executeTakeFirstOrThrow();
    return Number(numDeletedRows);
  }

  /**
   * A decision applies only while its request has none, under the row's lock: a concurrent callback about the
   * same request waits for this statement and then finds it decided. Within a batch, only the first decision
   * about a request is written; a later one answers false, for the transaction to apply it after. The events'
   * insert has no ON CONFLICT: a recorded event fails the statement (then each decision is written alone, and
   * the recorded one's decision and news are not written either).
   */
  private async recordFirstDecisions(decisions: readonly FirstDecision[]): Promise<boolean[]> {
    const written = firstOfEachKey(decisions, ({ update }) => `${update.livemode}:${update.txId}`);
    const column = <T>(of: (decision: FirstDecision) => T): T[] => written.map(of);
    const news = outboxRows(
      written.map(({ update, traceContext }) => ({
        ...outboxMessage(PAYMENT_REQUEST_UPDATES, toProto(update), PAYMENT_REQUEST_UPDATES.routingKey),
        headers: traceContext,
      })),
    );
    const rows = await this.firstDecisionsStatement.execute(this.db, {
      txId: column((d) => d.update.txId),
      livemode: column((d) => d.update.livemode),
      decision: column((d) => d.update.decision),
      reasonCode: column((d) => d.update.reasonCode ?? null),
      paymentEnd2endId: column((d) => d.paymentEnd2endId ?? null),
      mode: column((d) => d.receipt.mode),
      evCode: column((d) => d.receipt.evCode),
      end2endId: column((d) => d.receipt.end2endId),
      occurrence: column((d) => d.receipt.occurrence),
      eventTxId: column((d) => d.receipt.txId),
      event: column((d) => JSON.stringify(d.receipt.event)),
      effect: column((d) => d.receipt.effect),
      receivedAt: column((d) => d.receipt.receivedAt),
      news,
    });
    const recorded = new Set(rows.map((row) => Number(row.n) - 1));
    const answers = new Map(written.map((decision, index) => [decision, recorded.has(index)]));
    return decisions.map((decision) => answers.get(decision) ?? false);
  }

  /** recordFirstDecisions' one statement, on the arrays of its decisions (FirstDecisionValues). */
  private firstDecisionsStatementOf(values: FirstDecisionValues) {
    // The arrays are unnested from sub-selects so that the plan stays generic.
    const decided = sql<DecidedRow>`unnest((SELECT ${values.txId}::text[]),
        (SELECT ${values.livemode}::boolean[]),
        (SELECT ${values.decision}::text[]),
        (SELECT ${values.reasonCode}::text[]),
        (SELECT ${values.paymentEnd2endId}::text[]),
        (SELECT ${values.mode}::text[]), (SELECT ${values.evCode}::text[]),
        (SELECT ${values.end2endId}::text[]),
        (SELECT ${values.occurrence}::text[]),
        (SELECT ${values.eventTxId}::text[]),
        (SELECT ${values.event}::jsonb[]),
        (SELECT ${values.effect}::text[]),
        (SELECT ${values.receivedAt}::timestamptz[]),
        (SELECT ${values.news.ids}::text[]), (SELECT ${values.news.routingKeys}::text[]), (SELECT ${values.news.types}::text[]),
        (SELECT ${values.news.payloads}::bytea[]), (SELECT ${values.news.headers}::jsonb[]))
      WITH ORDINALITY`
      .as<'d'>(sql`d (tx_id, livemode, decision, reason_code, payment_end2end_id, mode, ev_code,
        end2end_id, occurrence, event_tx_id, event, effect, received_at, message_id, routing_key, type, payload,
        headers, n)`);
    return this.db
      .with('decided', (db) => db.selectFrom(decided).selectAll())
      .with('request', (db) =>
        db
          .updateTable('payment_requests as p')
          .from('decided as d')
          .set((eb) => ({
            decision: eb.ref('d.decision'),
            decision_reason: eb.ref('d.reason_code'),
            payment_end2end_id: eb.fn.coalesce('d.payment_end2end_id', 'p.payment_end2end_id'),
            updated_at: eb.ref('d.received_at'),
          }))
          .whereRef('p.tx_id', '=', 'd.tx_id')
          .whereRef('p.livemode', '=', 'd.livemode')
          .where('p.decision', 'is', null)
          .returning('d.n'),
      )
      .with('event', (db) =>
        db
          .insertInto('scheme_callback_events')
          .columns(['mode', 'ev_code', 'end2end_id', 'occurrence', 'tx_id', 'event', 'effect', 'received_at'])
          .expression(
            db
              .selectFrom('decided as d')
              .innerJoin('request as r', 'r.n', 'd.n')
              .select([
                'd.mode',
                'd.ev_code',
                'd.end2end_id',
                'd.occurrence',
                'd.event_tx_id',
                'd.event',
                'd.effect',
                'd.received_at',
              ])
              .orderBy('d.n'),
          )
          .returning(['mode', 'ev_code', 'end2end_id', 'occurrence']),
      )
      .with('recorded', (db) =>
        db
          .selectFrom('decided as d')
          .innerJoin('event as e', (join) =>
            join
              .onRef('e.mode', '=', 'd.mode')
              .onRef('e.ev_code', '=', 'd.ev_code')
              .onRef('e.end2end_id', '=', 'd.end2end_id')
              .onRef('e.occurrence', '=', 'd.occurrence'),
          )
          .selectAll('d'),
      )
      .with('news', (db) =>
        db
          .insertInto('outbox')
          .columns(['id', 'routing_key', 'type', 'payload', 'headers', 'created_at'])
          .expression(
            db
              .selectFrom('recorded')
              .select([
                'message_id',
                'routing_key',
                'type',
                'payload',
                'headers',
                sql<Date>`clock_timestamp() + n * interval '1 microsecond'`.as('created_at'),
              ]),
          ),
      )
      .selectFrom('recorded')
      .select('n');
  }
}

/** The unique violation of an event recorded before (scheme_callback_events' primary key). */
function isRecordedEvent(error: unknown): boolean {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === 'scheme_callback_events_pkey';
}
