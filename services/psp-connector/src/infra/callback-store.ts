import { FUND_RETURN_UPDATES, outboxMessage, PAYMENT_REQUEST_UPDATES, pspV1 } from '@sika/contracts';
import { enqueue, outboxRow } from '@sika/messaging';
import type { SqlDatabase, SqlTransaction } from '@sika/platform';

import type { CallbackEventReceipt, CallbackStore, CallbackUnit, LockedFundReturn } from '../app/ports';
import type { FundReturnOutcome, FundReturnStatus, FundReturnStep } from '../domain/fund-return';
import type { Mode } from '../domain/mode';
import { isPayerDecision, type PayerDecision, type PaymentRequestUpdate } from '../domain/payment-request';
import { lockPayoutTransfer, recordPayoutTransferStep } from './payout-transfer-store';

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

/** The fund return of a transfer (by its end-to-end id) or of an attempt (by its tx_id), locked. */
export async function lockFundReturn(
  tx: SqlTransaction,
  key: { livemode: boolean; end2endId: string } | { txId: string },
): Promise<LockedFundReturn | null> {
  type Row = { tx_id: string; end2end_id: string; status: string; attempts: number };
  const rows =
    'txId' in key
      ? await tx.$queryRaw<Row[]>`
          SELECT tx_id, end2end_id, status, attempts FROM fund_returns
           WHERE tx_id = ${key.txId} FOR UPDATE`
      : await tx.$queryRaw<Row[]>`
          SELECT tx_id, end2end_id, status, attempts FROM fund_returns
           WHERE end2end_id = ${key.end2endId} AND livemode = ${key.livemode} FOR UPDATE`;
  const row = rows[0];
  if (!row) return null;
  return {
    txId: row.tx_id,
    end2endId: row.end2end_id,
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
  const [row] = await tx.$queryRaw<{ livemode: boolean; amount: bigint }[]>`
    UPDATE fund_returns
       SET status = ${step.status},
           attempts = attempts + CASE WHEN ${sentAgain}::boolean THEN 1 ELSE 0 END,
           next_attempt_at = COALESCE(${step.nextAttemptAt}::timestamptz, next_attempt_at),
           last_reason = COALESCE(${reasonCode ?? null}::text, last_reason),
           updated_at = ${at}
     WHERE tx_id = ${fundReturn.txId}
    RETURNING livemode, amount`;
  if (!row) throw new Error(`fund return ${fundReturn.txId} vanished while locked`);
  if (step.outcome === null) return;
  const update: pspV1.FundReturnUpdated = {
    livemode: row.livemode,
    txId: fundReturn.txId,
    status: FUND_RETURN_OUTCOMES[step.outcome],
    amount: row.amount,
    occurredAt: at,
    ...(reasonCode !== undefined && { reasonCode }),
  };
  await enqueue(tx, outboxMessage(FUND_RETURN_UPDATES, update, FUND_RETURN_UPDATES.routingKey));
}

export class SqlCallbackStore implements CallbackStore {
  constructor(private readonly db: SqlDatabase) {}

  inTransaction<T>(work: (unit: CallbackUnit) => Promise<T>): Promise<T> {
    return this.db.$transaction((tx) => work(unitOf(tx)));
  }

  /**
   * The decision applies only while the request has none, under the row's lock: a concurrent callback about
   * the same request waits for this one and then finds it decided. The event's insert has no ON CONFLICT: a
   * recorded event fails the statement, so the decision and the news are not written either.
   */
  async recordFirstDecision(
    receipt: CallbackEventReceipt,
    update: PaymentRequestUpdate,
    paymentEnd2endId: string | undefined,
  ): Promise<boolean> {
    const message = outboxRow(
      outboxMessage(PAYMENT_REQUEST_UPDATES, toProto(update), PAYMENT_REQUEST_UPDATES.routingKey),
    );
    try {
      const recorded = await this.db.$queryRaw<{ tx_id: string }[]>`
        WITH request AS (
          UPDATE payment_requests
             SET decision = ${update.decision},
                 decision_reason = ${update.reasonCode ?? null},
                 payment_end2end_id = COALESCE(${paymentEnd2endId ?? null}::text, payment_end2end_id),
                 updated_at = ${receipt.receivedAt}
           WHERE tx_id = ${update.txId} AND livemode = ${update.livemode} AND decision IS NULL
          RETURNING tx_id),
        event AS (
          INSERT INTO scheme_callback_events
                 (mode, ev_code, end2end_id, occurrence, tx_id, event, effect, received_at)
          SELECT ${receipt.mode}::text, ${receipt.evCode}::text, ${receipt.end2endId}::text,
                 ${receipt.occurrence}::text, ${receipt.txId}::text, ${JSON.stringify(receipt.event)}::jsonb,
                 ${receipt.effect}::text, ${receipt.receivedAt}::timestamptz
            FROM request
          RETURNING tx_id),
        news AS (
          INSERT INTO outbox (id, routing_key, type, payload, headers, created_at)
          SELECT ${message.id}::text, ${message.routingKey}::text, ${message.type}::text, ${message.payload}::bytea,
                 ${message.headers}::jsonb, clock_timestamp()
            FROM event)
        SELECT tx_id FROM event`;
      return recorded.length === 1;
    } catch (error) {
      if (isRecordedEvent(error)) return false;
      throw error;
    }
  }
}

/** The unique violation of an event recorded before (scheme_callback_events' primary key). */
function isRecordedEvent(error: unknown): boolean {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === 'scheme_callback_events_pkey';
}
