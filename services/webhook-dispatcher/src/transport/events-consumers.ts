import { CONSUMER_QUEUES, PAYMENT_EVENTS, type paymentsV1 } from '@sika/contracts';
import { InboxConsumer, type Broker, type SqlClient, type TransactionRunner } from '@sika/messaging';
import type { Logger } from '@sika/platform';
import { isEventType, renderPayment } from '@sika/public-api';
import type { EventStore } from '../app/ports';
import type { RecordPaymentEvent } from '../app/record-payment-event';
import type { PaymentChange } from '../domain/payment-event';

/** The inbox key: stays the same whatever the queue is called. */
const CONSUMER_NAME = CONSUMER_QUEUES.webhooksPaymentEvents.queue;

/**
 * A PaymentEvent as the dispatcher records it. Anything that is not a public payment event (unknown type,
 * no payment) is a producer bug: it throws, and the message goes to the dead-letter queue.
 */
export function paymentChangeOf(event: paymentsV1.PaymentEvent): PaymentChange {
  const { type, payment } = event;
  if (!isEventType(type) || !type.startsWith('payment.')) {
    throw new Error(`not a public payment event type: ${JSON.stringify(type)}`);
  }
  if (payment === undefined || payment.id === '' || payment.merchantId === '') {
    throw new Error('payment event without a payment');
  }
  return {
    type,
    occurredAt: event.occurredAt,
    scope: { merchantId: payment.merchantId, livemode: payment.livemode },
    payment: renderPayment(payment),
  };
}

export interface PaymentEventsConsumerOptions<Tx extends SqlClient> {
  broker: Broker;
  prisma: TransactionRunner<Tx>;
  eventStoreFor: (tx: Tx) => EventStore;
  recordPaymentEvent: RecordPaymentEvent;
  logger: Logger;
  topology: { exchange: string; queue: string; prefetch?: number };
}

/** payments' PaymentEvents through the inbox: each message becomes one stored event. */
export function paymentEventsConsumer<Tx extends SqlClient>(
  options: PaymentEventsConsumerOptions<Tx>,
): InboxConsumer<PaymentChange, Tx> {
  const { topology } = options;
  return new InboxConsumer({
    broker: options.broker,
    prisma: options.prisma,
    queue: topology.queue,
    bindings: CONSUMER_QUEUES.webhooksPaymentEvents.bindings,
    exchange: topology.exchange,
    ...(topology.prefetch !== undefined && { prefetch: topology.prefetch }),
    consumerName: CONSUMER_NAME,
    logger: options.logger,
    decode: (bytes) => paymentChangeOf(PAYMENT_EVENTS.codec.decode(bytes)),
    handle: (message, tx) => options.recordPaymentEvent.execute(options.eventStoreFor(tx), message),
  });
}
