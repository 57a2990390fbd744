import { PAYMENT_REQUEST_UPDATES, pspV1 } from '@sika/contracts';
import { enqueue } from '@sika/messaging';

import type { CallbackEventReceipt, CallbackStore, CallbackUnit } from '../app/ports';
import type { Mode } from '../domain/mode';
import { isPayerDecision, type PayerDecision, type PaymentRequestUpdate } from '../domain/payment-request';
import type { Prisma, PspPrismaClient } from './prisma-client';

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
    ...(update.reasonCode !== undefined && { reasonCode: update.reasonCode }),
    ...(update.endToEndId !== undefined && { endToEndId: update.endToEndId }),
  };
}

function unitOf(tx: Prisma.TransactionClient): CallbackUnit {
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
        INSERT INTO scheme_callback_events (mode, ev_code, end2end_id, tx_id, event, effect, received_at)
        VALUES (${receipt.mode}, ${receipt.evCode}, ${receipt.end2endId}, ${receipt.txId},
                ${JSON.stringify(receipt.event)}::jsonb, ${receipt.effect}, ${receipt.receivedAt})
        ON CONFLICT DO NOTHING`;
      return inserted === 1;
    },

    async recordDecision(txId, decision, reasonCode, paymentEnd2endId, at) {
      await tx.paymentRequest.update({
        where: { txId },
        data: {
          decision,
          decisionReason: reasonCode ?? null,
          ...(paymentEnd2endId !== undefined && { paymentEnd2endId }),
          updatedAt: at,
        },
      });
    },

    async publish(update) {
      await enqueue(tx, {
        routingKey: PAYMENT_REQUEST_UPDATES.routingKey,
        type: PAYMENT_REQUEST_UPDATES.messageType,
        payload: PAYMENT_REQUEST_UPDATES.codec.encode(toProto(update)).finish(),
      });
    },
  };
}

export class PrismaCallbackStore implements CallbackStore {
  constructor(private readonly prisma: PspPrismaClient) {}

  inTransaction<T>(work: (unit: CallbackUnit) => Promise<T>): Promise<T> {
    return this.prisma.$transaction((tx) => work(unitOf(tx)));
  }
}
