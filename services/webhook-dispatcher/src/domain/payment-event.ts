import type { paymentsV1 } from '@sika/contracts';
import { isEventType, renderEvent, renderPayment, type EventType } from '@sika/public-api';
import type { Scope } from './scope';

/** An event ready to store: the exact JSON body of every delivery, and what it is about. */
export interface StoredEvent {
  id: string;
  sourceMessageId: string;
  scope: Scope;
  type: EventType;
  payload: string;
  createdAt: Date;
}

/** Whether a PaymentEvent carries what a public payment event needs; anything else is a producer bug. */
export function assertPublishablePaymentEvent(event: paymentsV1.PaymentEvent): void {
  if (!isEventType(event.type) || !event.type.startsWith('payment.')) {
    throw new Error(`not a public payment event type: ${JSON.stringify(event.type)}`);
  }
  if (event.payment === undefined || event.payment.id === '' || event.payment.merchantId === '') {
    throw new Error('payment event without a payment');
  }
}

/**
 * The event of spec §2.6 for a payment status change: `data.object` is the payment as the API shows it,
 * metadata included (spec §6 rule 1), rendered by the same code as the API's responses. `created_at` is
 * when the change happened.
 */
export function buildPaymentEvent(input: {
  id: string;
  sourceMessageId: string;
  event: paymentsV1.PaymentEvent;
  receivedAt: Date;
}): StoredEvent {
  const { event } = input;
  assertPublishablePaymentEvent(event);
  const payment = event.payment as paymentsV1.Payment;
  const type = event.type as EventType;
  const createdAt = event.occurredAt ?? input.receivedAt;
  const body = renderEvent({
    id: input.id,
    type,
    createdAt,
    livemode: payment.livemode,
    payment: renderPayment(payment),
  });
  return {
    id: input.id,
    sourceMessageId: input.sourceMessageId,
    scope: { merchantId: payment.merchantId, livemode: payment.livemode },
    type,
    payload: JSON.stringify(body),
    createdAt,
  };
}
