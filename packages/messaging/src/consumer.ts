import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { BackgroundTasks, createCounter, StatementBatcher, withContextFrom } from '@sika/platform';
import type { Component, Logger, Metrics } from '@sika/platform';
import { producerCheckFor, type ProducerCheck } from './accounts';
import type { Broker } from './broker';
import { watchDeadLetters } from './dead-letter-metrics';
import {
  applyTogether,
  processDelivery,
  type DeliveryOutcome,
  type DeliverySettings,
  type ReceivedMessage,
} from './delivery';
import { QueueMover } from './move';
import type { MessagingClient, TransactionRunner } from './sql';
import { deadLetterQueueName, declareConsumerTopology } from './topology';

export type { ReceivedMessage } from './delivery';

interface ConsumerSettings<T> {
  broker: Broker;
  /** Also the prefix of `<queue>.retry` and `<queue>.dlq`. */
  queue: string;
  bindings: readonly string[];
  exchange?: string;
  /** Key of this consumer's rows in the inbox table; must stay stable across deploys. */
  consumerName: string;
  /** Throws on bytes that are not a valid message: those go straight to the dead-letter queue. */
  decode: (bytes: Uint8Array) => T;
  /** Handler tries before the message is dead-lettered. */
  maxAttempts?: number;
  /** Messages handled concurrently. */
  prefetch?: number;
  /** Pause before a failed message is tried again. Part of the retry queue's arguments: see topology.ts. */
  retryDelayMs?: number;
  logger?: Logger;
  /**
   * Where `sika_messages_settled_total{queue, outcome}` is counted and `sika_dead_letter_messages{queue}` read
   * on scrape, when given.
   */
  metrics?: Metrics;
}

/**
 * What makes a redelivered message change nothing, by default: the message id goes into the inbox table in
 * the transaction the handler's effect commits in, and the handler runs at most once per message id.
 */
export type InboxDeduplication<T, Tx extends MessagingClient> = {
  deduplication?: 'inbox';
  database: TransactionRunner<Tx>;
  transactionTimeoutMs?: number;
} & (
  | { handle: (message: ReceivedMessage<T>, tx: Tx) => Promise<void>; handleAll?: never }
  | {
      /**
       * Instead of `handle`: the messages that arrive together (one read of the broker's socket) applied in
       * one transaction with their inbox rows, so that under load one BEGIN, inbox statement and COMMIT serve
       * many messages and the handler can make their effects with one statement each. It gets the messages not
       * applied before, each once, in delivery order, and must apply all or fail. A batch whose transaction
       * fails is applied again one message per transaction (handleAll of that one), so that a message's
       * failure stays its own: it alone is retried, then dead-lettered.
       */
      handleAll: (messages: readonly ReceivedMessage<T>[], tx: Tx) => Promise<void>;
      handle?: never;
    }
);

/**
 * The handler applies a message at most once by itself: its first write holds the message id under a unique
 * key, in the same row as the effect, and any later write is one whose loss the next try or a sweep makes
 * good. No inbox row and no transaction: the handler writes as it sees fit (say, the writes of many messages
 * in one statement), and a message costs no round trip of the consumer's own.
 */
export interface HandlerDeduplication<T> {
  deduplication: 'handler';
  /** Resolves once its effect is committed: the message is acked then. */
  handle: (message: ReceivedMessage<T>) => Promise<void>;
}

export type ConsumerOptions<T, Tx extends MessagingClient> = ConsumerSettings<T> &
  (InboxDeduplication<T, Tx> | HandlerDeduplication<T>);

export interface Consumer {
  /** Stops taking messages, waits for those in progress to be settled, closes the channel. */
  close(): Promise<void>;
}

const DEFAULTS = {
  maxAttempts: 5,
  prefetch: 10,
  retryDelayMs: 5_000,
  transactionTimeoutMs: 15_000,
} as const;

/**
 * Consumes a queue with an inbox: the message id is inserted into `inbox` in the same transaction as the
 * handler's effect (or, with `deduplication: 'handler'`, into the effect's own row by the handler), so a
 * redelivered message (delivery is at-least-once everywhere upstream) changes nothing. A
 * message that cannot be decoded goes to `<queue>.dlq` at once; a failing handler is retried
 * through `<queue>.retry` and dead-lettered after maxAttempts. Failed messages wait in the retry queue, not
 * back in the main queue, so one bad message never blocks those behind it. Connected as a service's broker
 * user, it first dead-letters any message whose `user_id` is not its type's producer (accounts.ts).
 *
 * Resolves once the topology is declared and the subscription runs; rejects if that fails.
 */
export async function startConsumer<T, Tx extends MessagingClient>(
  options: ConsumerOptions<T, Tx>,
): Promise<Consumer> {
  const settings = { ...DEFAULTS, ...options };
  const logger = (options.logger ?? options.broker.logger).child({
    consumer: options.consumerName,
    queue: options.queue,
  });
  const checkProducer = producerCheckFor(options.broker.user);
  if (!checkProducer) {
    logger.warn(
      { user: options.broker.user },
      "producer checks off: connected as a user that is not a service's broker user",
    );
  }
  const deliverySettings = deliverySettingsOf(settings, logger, checkProducer);
  const inFlight = new BackgroundTasks((err) =>
    logger.error({ err }, 'unexpected failure while settling a message'),
  );
  let subscription: { channel: ConfirmChannel; consumerTag: string } | undefined;
  let closing = false;

  async function subscribe(channel: ConfirmChannel, mover: QueueMover): Promise<void> {
    await declareConsumerTopology(channel, settings);
    if (closing) return;
    await channel.prefetch(settings.prefetch);
    const { consumerTag } = await channel.consume(settings.queue, (delivery) =>
      onDelivery(channel, mover, delivery),
    );
    subscription = { channel, consumerTag };
  }

  function onDelivery(channel: ConfirmChannel, mover: QueueMover, delivery: ConsumeMessage | null): void {
    if (delivery === null) {
      // The broker cancelled the subscription (e.g. the queue was deleted): declare and subscribe again;
      // if that fails, closing the channel makes the broker module reconnect and run the setup anew.
      if (closing) return;
      logger.warn('subscription cancelled by the broker, subscribing again');
      subscribe(channel, mover).catch((err: unknown) => {
        logger.error({ err }, 'subscribing again failed, closing the channel');
        channel.close().catch(() => {});
      });
      return;
    }
    inFlight.run(() => processDelivery(deliverySettings, channel, mover, delivery));
  }

  // The setup runs again on every reconnect; the first run's outcome is startConsumer's.
  let reportFirstSetup: ((err?: unknown) => void) | undefined;
  const firstSetup = new Promise<void>((resolve, reject) => {
    reportFirstSetup = (err) => (err === undefined ? resolve() : reject(err));
  });
  const wrapper = options.broker.createChannel(`consumer:${options.queue}`, async (channel) => {
    try {
      await subscribe(channel, new QueueMover(channel, options.broker.user));
      reportFirstSetup?.();
    } catch (err) {
      reportFirstSetup?.(err);
      throw err;
    } finally {
      reportFirstSetup = undefined;
    }
  });
  try {
    await firstSetup;
  } catch (err) {
    await wrapper.close();
    throw err;
  }
  const deadLetters = deadLetterQueueName(settings.queue);
  const unwatch =
    options.metrics &&
    watchDeadLetters(
      options.metrics,
      settings.queue,
      async () => (await wrapper.checkQueue(deadLetters)).messageCount,
    );

  return {
    async close() {
      closing = true;
      unwatch?.();
      if (subscription) await subscription.channel.cancel(subscription.consumerTag).catch(() => {});
      await inFlight.drain();
      await wrapper.close();
    },
  };
}

function deliverySettingsOf<T, Tx extends MessagingClient>(
  settings: ConsumerOptions<T, Tx> & Record<keyof typeof DEFAULTS, number>,
  logger: Logger,
  checkProducer: ProducerCheck | undefined,
): DeliverySettings<T> {
  const { queue, consumerName, decode, maxAttempts } = settings;
  const settled = settings.metrics && settledCounter(settings.metrics, queue);
  const settling = { queue, consumerName, decode, maxAttempts, logger, checkProducer, settled };
  if (settings.deduplication === 'handler') {
    const { handle } = settings;
    return { ...settling, apply: (message) => handle(message).then(() => true) };
  }
  const { database, transactionTimeoutMs, handle, handleAll } = settings;
  const inbox = { consumerName, database, transactionTimeoutMs, handleAll: handleAll ?? eachIn(handle) };
  if (handleAll === undefined) {
    // One message per transaction: the inbox of a batch of one.
    return { ...settling, apply: async (message) => (await applyTogether(inbox, [message]))[0] === true };
  }
  const together = new StatementBatcher(
    (messages: readonly ReceivedMessage<T>[]) => applyTogether(inbox, messages),
    {
      maxBatchSize: settings.prefetch,
      // A handler's failure may be any one message's: the others of its batch are applied without it.
      retryAloneWhen: () => true,
    },
  );
  return { ...settling, apply: (message) => together.write(message) };
}

/** A handler of one message as a handler of several: each in turn, in the same transaction and its own trace. */
export function eachIn<T, Tx extends MessagingClient>(
  handle: (message: ReceivedMessage<T>, tx: Tx) => Promise<void>,
): (messages: readonly ReceivedMessage<T>[], tx: Tx) => Promise<void> {
  return async (messages, tx) => {
    for (const message of messages) await withContextFrom(message.traceHeaders, () => handle(message, tx));
  };
}

const SETTLED_METRIC = 'sika_messages_settled_total';
type SettledCounter = ReturnType<typeof createCounter<'queue' | 'outcome'>>;

/** Counts this queue's settled deliveries in the registry, whose one counter every consumer of it shares. */
function settledCounter(metrics: Metrics, queue: string): (outcome: DeliveryOutcome) => void {
  const counter =
    (metrics.registry.getSingleMetric(SETTLED_METRIC) as SettledCounter | undefined) ??
    createCounter(metrics, {
      name: SETTLED_METRIC,
      help: 'Deliveries a consumer settled, by queue and outcome (applied, duplicate, retried, dead_lettered).',
      labelNames: ['queue', 'outcome'],
    });
  return (outcome) => counter.inc({ queue, outcome });
}

/**
 * A consumer as a component of a service: subscribes on start(), and on stop() stops taking messages and
 * waits for those in progress to be settled.
 */
export class InboxConsumer<T, Tx extends MessagingClient> implements Component {
  readonly name: string;
  private running: Consumer | undefined;

  constructor(private readonly options: ConsumerOptions<T, Tx>) {
    this.name = `consumer ${options.consumerName}`;
  }

  async start(): Promise<void> {
    this.running = await startConsumer(this.options);
  }

  async stop(): Promise<void> {
    await this.running?.close();
  }
}
