import { paymentsV1 } from '@sika/contracts';
import {
  startConsumer,
  type Broker,
  type Consumer,
  type TransactionRunner,
  type SqlClient,
} from '@sika/messaging';
import type { Logger } from '@sika/platform';
import type { EventStore } from '../app/ports';
import type { RecordPaymentEvent } from '../app/record-payment-event';
import { assertPublishablePaymentEvent } from '../domain/payment-event';

export const PAYMENT_EVENTS_QUEUE = 'webhook-dispatcher.payment-events';
/** Every payment status change published by payments (`payments.payment.succeeded`, …). */
export const PAYMENT_EVENTS_BINDINGS = ['payments.payment.*'] as const;
/** The inbox key: stays the same whatever the queue is called. */
const CONSUMER_NAME = 'webhook-dispatcher.payment-events';

export interface PaymentEventsConsumerOptions<Tx extends SqlClient> {
  broker: Broker;
  prisma: TransactionRunner<Tx>;
  eventStoreFor: (tx: Tx) => EventStore;
  recordPaymentEvent: RecordPaymentEvent;
  logger: Logger;
  /** Tests use their own exchange and queue. */
  exchange?: string;
  queue?: string;
  prefetch?: number;
}

/**
 * Consumes payments' PaymentEvents with the inbox: each message becomes one stored event. A message that is
 * not a public payment event (unknown type, no payment) cannot be decoded and goes to the dead-letter queue.
 */
export function startPaymentEventsConsumer<Tx extends SqlClient>(
  options: PaymentEventsConsumerOptions<Tx>,
): Promise<Consumer> {
  return startConsumer({
    broker: options.broker,
    prisma: options.prisma,
    queue: options.queue ?? PAYMENT_EVENTS_QUEUE,
    bindings: PAYMENT_EVENTS_BINDINGS,
    ...(options.exchange && { exchange: options.exchange }),
    ...(options.prefetch && { prefetch: options.prefetch }),
    consumerName: CONSUMER_NAME,
    logger: options.logger,
    decode: (bytes) => {
      const event = paymentsV1.PaymentEvent.decode(bytes);
      assertPublishablePaymentEvent(event);
      return event;
    },
    handle: (message, tx) => options.recordPaymentEvent(options.eventStoreFor(tx), message),
  });
}
