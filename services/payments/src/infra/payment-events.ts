import { PAYMENT_EVENTS, REFUND_REQUESTS, type paymentsV1 } from '@sika/contracts';
import { enqueue } from '@sika/messaging';
import type { Refund } from '../domain/lifecycle';
import type { PaymentChange } from '../domain/payment';
import type { Tx } from './database';
import { toProtoPayment } from './payment-proto';

/**
 * Writes one PaymentEvent per status change to the outbox, in the transaction that makes the change: the
 * event is published if and only if the change commits.
 */
export async function writePaymentEvents(
  tx: Tx,
  changes: readonly PaymentChange[],
  occurredAt: Date,
): Promise<void> {
  for (const change of changes) {
    const event: paymentsV1.PaymentEvent = {
      type: change.type,
      payment: toProtoPayment(change.payment),
      occurredAt,
    };
    await enqueue(tx, {
      routingKey: PAYMENT_EVENTS.routingKey(change.type),
      type: PAYMENT_EVENTS.messageType,
      payload: PAYMENT_EVENTS.codec.encode(event).finish(),
    });
  }
}

/** payments.refund.requested, in the transaction that records the money as owed back: psp-connector returns it. */
export async function writeRefundRequest(tx: Tx, livemode: boolean, refund: Refund): Promise<void> {
  await enqueue(tx, {
    routingKey: REFUND_REQUESTS.routingKey,
    type: REFUND_REQUESTS.messageType,
    payload: REFUND_REQUESTS.codec.encode({ livemode, txId: refund.txId, amount: refund.amount }).finish(),
  });
}
