import { paymentsV1 } from '@sika/contracts';
import { enqueue } from '@sika/messaging';
import type { PaymentChange, PaymentEventType } from '../domain/payment';
import type { Tx } from './database';
import { toProtoPayment } from './payment-proto';

/** The AMQP `type` of every payment event. */
export const PAYMENT_EVENT_MESSAGE = 'sika.payments.v1.PaymentEvent';

/** `payments.payment.succeeded`: consumers bind `payments.payment.*`. */
export function paymentEventRoutingKey(type: PaymentEventType): string {
  return `payments.${type}`;
}

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
      routingKey: paymentEventRoutingKey(change.type),
      type: PAYMENT_EVENT_MESSAGE,
      payload: paymentsV1.PaymentEvent.encode(event).finish(),
    });
  }
}
