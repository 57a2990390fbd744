import { outboxMessage, PAYMENT_EVENTS, REFUND_REQUESTS, type paymentsV1 } from '@sika/contracts';
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
    await enqueue(tx, outboxMessage(PAYMENT_EVENTS, event, PAYMENT_EVENTS.routingKey(change.type)));
  }
}

/** payments.refund.requested, in the transaction that records the money as owed back: psp-connector returns it. */
export async function writeRefundRequest(tx: Tx, livemode: boolean, refund: Refund): Promise<void> {
  const request = { livemode, txId: refund.txId, amount: refund.amount };
  await enqueue(tx, outboxMessage(REFUND_REQUESTS, request, REFUND_REQUESTS.routingKey));
}
