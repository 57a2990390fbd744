import { pspV1 } from '@sika/contracts';
import { enqueue } from '@sika/messaging';

import type { CallbackEventReceipt, CallbackStore, CallbackUnit } from '../app/ports';
import type { Mode } from '../domain/mode';
import { isPayerDecision } from '../domain/payment-request';
import type { Prisma, PspPrismaClient } from './prisma-client';

export const PAYMENT_REQUEST_UPDATED_ROUTING_KEY = 'psp.payment_request.updated';
const PAYMENT_REQUEST_UPDATED_TYPE = 'sika.psp.v1.PaymentRequestUpdated';

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
        routingKey: PAYMENT_REQUEST_UPDATED_ROUTING_KEY,
        type: PAYMENT_REQUEST_UPDATED_TYPE,
        payload: pspV1.PaymentRequestUpdated.encode(update).finish(),
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
