import { FUND_RETURN_UPDATES, outboxMessage, PAYMENT_REQUEST_UPDATES, pspV1 } from '@sika/contracts';
import { enqueue, outboxRows } from '@sika/messaging';
import {
  firstOfEachKey,
  StatementBatcher,
  traceHeaders,
  type SqlDatabase,
  type SqlTransaction,
} from '@sika/platform';

import type { CallbackEventReceipt, CallbackStore, CallbackUnit, LockedFundReturn } from '../app/ports';
import type { FundReturnOutcome, FundReturnStatus, FundReturnStep } from '../domain/fund-return';
import type { Mode } from '../domain/mode';
import { isPayerDecision, type PayerDecision, type PaymentRequestUpdate } from '../domain/payment-request';
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

function unitOf(tx: SqlTransaction): CallbackUnit {
  return {
    async lockRequest(mode: Mode, txId: string) {
      const rows = await tx.$queryRaw<{ decision: string | null }[]>`
        SELECT decision FROM payment_requests WHERE tx_id = ${txId} AND livemode = ${mode === 'live'} FOR UPDATE`;
      const row = rows[0];
      if (!row) return null;
      return { decision: row.decision !== null && isPayerDecision(row.decision) ? row.decision : null };
    },

    async recordEvent(receipt: CallbackEventReceipt) {
      const inserted = await tx.$executeRaw`
        INSERT INTO scheme_callback_events (mode, ev_code, end2end_id, occurrence, tx_id, event, effect, received_at)
        VALUES (${receipt.mode}, ${receipt.evCode}, ${receipt.end2endId}, ${receipt.occurrence}, ${receipt.txId},
                ${JSON.stringify(receipt.event)}::jsonb, ${receipt.effect}, ${receipt.receivedAt})
        ON CONFLICT DO NOTHING`;
      return inserted === 1;
    },

    async recordDecision(txId, decision, reasonCode, paymentEnd2endId, at) {
      await tx.$executeRaw`
        UPDATE payment_requests
           SET decision = ${decision},
               decision_reason = ${reasonCode ?? null},
               payment_end2end_id = COALESCE(${paymentEnd2endId ?? null}::text, payment_end2end_id),
               updated_at = ${at}
         WHERE tx_id = ${txId}`;
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
  tx: SqlTransaction,
  key: { livemode: boolean; end2endId: string },
): Promise<LockedFundReturn | null> {
  const [row] = await tx.$queryRaw<{ tx_id: string; status: string; attempts: number }[]>`
    SELECT tx_id, status, attempts FROM fund_returns
     WHERE livemode = ${key.livemode} AND end2end_id = ${key.end2endId} FOR UPDATE`;
  if (!row) return null;
  return {
    ...key,
    txId: row.tx_id,
    state: { status: row.status as FundReturnStatus, attempts: row.attempts },
  };
}

/** Saves a step of a return and, when it ended, psp.fund_return.updated in the same transaction. */
export async function recordFundReturnStep(
  tx: SqlTransaction,
  fundReturn: LockedFundReturn,
  step: FundReturnStep,
  reasonCode: string | undefined,
  at: Date,
  sentAgain = false,
): Promise<void> {
  const [row] = await tx.$queryRaw<{ amount: bigint }[]>`
    UPDATE fund_returns
       SET status = ${step.status},
           attempts = attempts + CASE WHEN ${sentAgain}::boolean THEN 1 ELSE 0 END,
           next_attempt_at = COALESCE(${step.nextAttemptAt}::timestamptz, next_attempt_at),
           last_reason = COALESCE(${reasonCode ?? null}::text, last_reason),
           updated_at = ${at}
     WHERE livemode = ${fundReturn.livemode} AND end2end_id = ${fundReturn.end2endId}
    RETURNING amount`;
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

  constructor(private readonly db: Pick<SqlDatabase, '$queryRaw' | '$executeRaw' | '$transaction'>) {}

  inTransaction<T>(work: (unit: CallbackUnit) => Promise<T>): Promise<T> {
    return this.db.$transaction((tx) => work(unitOf(tx)));
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

  deleteEventsReceivedBefore(before: Date, limit: number): Promise<number> {
    return this.db.$executeRaw`
      DELETE FROM scheme_callback_events WHERE (mode, ev_code, end2end_id, occurrence) IN (
        SELECT mode, ev_code, end2end_id, occurrence FROM scheme_callback_events
         WHERE received_at < ${before} LIMIT ${limit})`;
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
    // The arrays are unnested from sub-selects so that the plan stays generic.
    const rows = await this.db.$queryRaw<{ n: bigint }[]>`
      WITH decided AS (
        SELECT * FROM unnest((SELECT ${column((d) => d.update.txId)}::text[]),
            (SELECT ${column((d) => d.update.livemode)}::boolean[]),
            (SELECT ${column((d) => d.update.decision)}::text[]),
            (SELECT ${column((d) => d.update.reasonCode ?? null)}::text[]),
            (SELECT ${column((d) => d.paymentEnd2endId ?? null)}::text[]),
            (SELECT ${column((d) => d.receipt.mode)}::text[]), (SELECT ${column((d) => d.receipt.evCode)}::text[]),
            (SELECT ${column((d) => d.receipt.end2endId)}::text[]),
            (SELECT ${column((d) => d.receipt.occurrence)}::text[]),
            (SELECT ${column((d) => d.receipt.txId)}::text[]),
            (SELECT ${column((d) => JSON.stringify(d.receipt.event))}::jsonb[]),
            (SELECT ${column((d) => d.receipt.effect)}::text[]),
            (SELECT ${column((d) => d.receipt.receivedAt)}::timestamptz[]),
            (SELECT ${news.ids}::text[]), (SELECT ${news.routingKeys}::text[]), (SELECT ${news.types}::text[]),
            (SELECT ${news.payloads}::bytea[]), (SELECT ${news.headers}::jsonb[]))
          WITH ORDINALITY AS d (tx_id, livemode, decision, reason_code, payment_end2end_id, mode, ev_code,
            end2end_id, occurrence, event_tx_id, event, effect, received_at, message_id, routing_key, type, payload,
            headers, n)),
      request AS (
        UPDATE payment_requests p
           SET decision = d.decision,
               decision_reason = d.reason_code,
               payment_end2end_id = COALESCE(d.payment_end2end_id, p.payment_end2end_id),
               updated_at = d.received_at
          FROM decided d
         WHERE p.tx_id = d.tx_id AND p.livemode = d.livemode AND p.decision IS NULL
        RETURNING d.n),
      event AS (
        INSERT INTO scheme_callback_events
               (mode, ev_code, end2end_id, occurrence, tx_id, event, effect, received_at)
        SELECT d.mode, d.ev_code, d.end2end_id, d.occurrence, d.event_tx_id, d.event, d.effect, d.received_at
          FROM decided d JOIN request r ON r.n = d.n
         ORDER BY d.n
        RETURNING mode, ev_code, end2end_id, occurrence),
      recorded AS (
        SELECT d.* FROM decided d
          JOIN event e ON (e.mode, e.ev_code, e.end2end_id, e.occurrence) = (d.mode, d.ev_code, d.end2end_id, d.occurrence)),
      news AS (
        INSERT INTO outbox (id, routing_key, type, payload, headers, created_at)
        SELECT message_id, routing_key, type, payload, headers, clock_timestamp() + n * interval '1 microsecond'
          FROM recorded)
      SELECT n FROM recorded`;
    const recorded = new Set(rows.map((row) => Number(row.n) - 1));
    const answers = new Map(written.map((decision, index) => [decision, recorded.has(index)]));
    return decisions.map((decision) => answers.get(decision) ?? false);
  }
}

/** The unique violation of an event recorded before (scheme_callback_events' primary key). */
function isRecordedEvent(error: unknown): boolean {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === 'scheme_callback_events_pkey';
}
