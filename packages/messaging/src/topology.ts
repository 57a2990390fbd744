import { EVENTS_EXCHANGE } from '@sika/contracts';
import type { Channel } from 'amqplib';

export { EVENTS_EXCHANGE };

/**
 * Backstop for a message that keeps coming back without ever being acked, e.g. because it crashes the
 * consumer process: after this many returns the broker moves it to the dead-letter queue. Ordinary handler
 * failures never count here; they go through the retry queue (see consumer.ts).
 */
export const DELIVERY_LIMIT = 20;

export type TopologyChannel = Pick<Channel, 'assertExchange' | 'assertQueue' | 'bindQueue'>;

export interface ConsumerTopology {
  queue: string;
  /** Routing-key patterns of the events exchange that feed the queue (topic syntax: `payment.*`). */
  bindings: readonly string[];
  exchange?: string;
  /** How long a failed message rests in the retry queue before it returns to the main queue. */
  retryDelayMs: number;
}

export const retryQueueName = (queue: string): string => `${queue}.retry`;
export const deadLetterQueueName = (queue: string): string => `${queue}.dlq`;

export async function declareEventsExchange(
  channel: TopologyChannel,
  exchange = EVENTS_EXCHANGE,
): Promise<void> {
  await channel.assertExchange(exchange, 'topic', { durable: true });
}

/**
 * Declares a consumer's queues: `<queue>` (bound to the exchange), `<queue>.retry` (holds a failed
 * message for retryDelayMs, then dead-letters it back to `<queue>`) and `<queue>.dlq`. All are quorum
 * queues, replicated and durable. Declaring is idempotent as long as the arguments stay the same: RabbitMQ
 * refuses to redeclare a queue with different ones, so changing retryDelayMs needs a new queue name.
 */
export async function declareConsumerTopology(
  channel: TopologyChannel,
  topology: ConsumerTopology,
): Promise<void> {
  const exchange = topology.exchange ?? EVENTS_EXCHANGE;
  const { queue } = topology;
  await declareEventsExchange(channel, exchange);
  await channel.assertQueue(deadLetterQueueName(queue), {
    durable: true,
    arguments: { 'x-queue-type': 'quorum' },
  });
  await channel.assertQueue(queue, {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-delivery-limit': DELIVERY_LIMIT,
      ...deadLetterTo(deadLetterQueueName(queue)),
    },
  });
  await channel.assertQueue(retryQueueName(queue), {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-message-ttl': topology.retryDelayMs,
      ...deadLetterTo(queue),
    },
  });
  for (const pattern of topology.bindings) {
    await channel.bindQueue(queue, exchange, pattern);
  }
}

/**
 * Dead-letters through the default exchange straight to `target`. `at-least-once` keeps the message in
 * the source queue until the target confirmed it (quorum queues only; it requires `reject-publish`).
 */
function deadLetterTo(target: string): Record<string, string> {
  return {
    'x-dead-letter-exchange': '',
    'x-dead-letter-routing-key': target,
    'x-dead-letter-strategy': 'at-least-once',
    'x-overflow': 'reject-publish',
  };
}
