import { PAYMENT_EVENTS, type paymentsV1 } from '@sika/contracts';
import { enqueue } from '@sika/messaging';
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
