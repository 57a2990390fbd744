import {
  CONSUMER_QUEUES,
  PAYMENT_EVENTS,
  PAYOUT_EVENTS,
  type ConsumerQueue,
  type paymentsV1,
  type payoutsV1,
} from '@sika/contracts';
import { InboxConsumer, type Broker } from '@sika/messaging';
import type { Logger, Metrics } from '@sika/platform';
import { isEventType, renderPayment, renderPayout, type EventType } from '@sika/public-api';
import type { RecordEvent } from '../app/record-event';
import type { RecordChange } from '../domain/event';

/** A producer's event type, checked: anything else is a producer bug, for the dead-letter queue. */
function eventTypeOf(type: string, prefix: 'payment.' | 'payout.'): EventType {
  if (!isEventType(type) || !type.startsWith(prefix)) {
    throw new Error(`not a public ${prefix.slice(0, -1)} event type: ${JSON.stringify(type)}`);
  }
  return type;
}

/** A PaymentEvent as the dispatcher records it; one without a payment is a producer bug. */
export function paymentChangeOf(event: paymentsV1.PaymentEvent): RecordChange {
  const type = eventTypeOf(event.type, 'payment.');
  const { payment } = event;
  if (payment === undefined || payment.id === '' || payment.merchantId === '') {
    throw new Error('payment event without a payment');
  }
  return {
    type,
    occurredAt: event.occurredAt,
    scope: { merchantId: payment.merchantId, livemode: payment.livemode },
    object: renderPayment(payment),
  };
}

/** A PayoutEvent as the dispatcher records it; one without a payout is a producer bug. */
export function payoutChangeOf(event: payoutsV1.PayoutEvent): RecordChange {
  const type = eventTypeOf(event.type, 'payout.');
  const { payout } = event;
  if (payout === undefined || payout.id === '' || payout.merchantId === '') {
    throw new Error('payout event without a payout');
  }
  return {
    type,
    occurredAt: event.occurredAt,
    scope: { merchantId: payout.merchantId, livemode: payout.livemode },
    object: renderPayout(payout),
  };
}

/** The producers whose changes become merchants' events, each with its queue and decoder. */
export const EVENT_SOURCES = {
  payments: {
    consumerQueue: CONSUMER_QUEUES.webhooksPaymentEvents,
    decode: (bytes: Uint8Array) => paymentChangeOf(PAYMENT_EVENTS.codec.decode(bytes)),
  },
  payouts: {
    consumerQueue: CONSUMER_QUEUES.webhooksPayoutEvents,
    decode: (bytes: Uint8Array) => payoutChangeOf(PAYOUT_EVENTS.codec.decode(bytes)),
  },
} as const satisfies Record<
  string,
  { consumerQueue: ConsumerQueue; decode(bytes: Uint8Array): RecordChange }
>;

export interface EventsConsumerOptions {
  source: (typeof EVENT_SOURCES)[keyof typeof EVENT_SOURCES];
  broker: Broker;
  recordEvent: RecordEvent;
  logger: Logger;
  metrics: Metrics;
  topology: { exchange: string; queue: string; prefetch?: number };
}

/**
 * One producer's events, each message one stored event. The events table is this consumer's inbox: the
 * statement that stores an event and schedules its delivery does nothing for a message id already stored
 * (`events.source_message_id` is unique), so no inbox row and no transaction around it are needed
 * (`deduplication: 'handler'`), and the messages that arrive together are stored by one statement (see
 * SqlEventRecorder). The consumer name, the contract's queue name, still names it in dead letters.
 */
export function eventsConsumer(options: EventsConsumerOptions): InboxConsumer<RecordChange, never> {
  const { topology, source } = options;
  return new InboxConsumer({
    broker: options.broker,
    queue: topology.queue,
    bindings: source.consumerQueue.bindings,
    exchange: topology.exchange,
    ...(topology.prefetch !== undefined && { prefetch: topology.prefetch }),
    consumerName: source.consumerQueue.queue,
    deduplication: 'handler',
    logger: options.logger,
    metrics: options.metrics,
    decode: source.decode,
    handle: (message) => options.recordEvent.execute(message),
  });
}
