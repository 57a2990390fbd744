import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { sql, type Kysely } from 'kysely';
import { firstOfEachKey, inMessageSpan, PreparedQuery, traceHeaders, type Logger } from '@sika/platform';
import type { ProducerCheck } from './accounts';
import {
  HEADERS,
  errorMessage,
  originalRoutingKey,
  previousAttempts,
  stringProperty,
  truncateReason,
} from './headers';
import type { QueueMover } from './move';
import { messagingTablesOf, type MessagingClient, type MessagingTables, type TransactionRunner } from './sql';
import { deadLetterQueueName, retryQueueName } from './topology';

export interface ReceivedMessage<T> {
  id: string;
  /** The protobuf message name the producer put in the AMQP `type` property. */
  type: string | undefined;
  routingKey: string;
  headers: Readonly<Record<string, unknown>>;
  body: T;
  /** 1 on the first try, 2 after one handler failure, and so on. */
  attempt: number;
  /**
   * Its consumer span's context as headers: what is done for it in a batch of several (the outbox rows it
   * writes) joins its own trace, not that of the batch's first message, in whose context the batch runs.
   */
  traceHeaders: Readonly<Record<string, string>>;
}

interface SettlingSettings<T> {
  queue: string;
  consumerName: string;
  decode: (bytes: Uint8Array) => T;
  maxAttempts: number;
  logger: Logger;
  /** Absent when the consumer's own user is no service's (see accounts.ts): nothing is checked then. */
  checkProducer?: ProducerCheck | undefined;
  /** Told how each delivery was settled, once it is (the consumer's metric). */
  settled?: ((outcome: DeliveryOutcome) => void) | undefined;
}

/** How a delivery was settled: its effect committed, a copy of one applied before, or moved on. */
export type DeliveryOutcome = 'applied' | 'duplicate' | 'retried' | 'dead_lettered';

export interface InboxSettings<T, Tx extends MessagingClient> {
  consumerName: string;
  database: TransactionRunner<Tx>;
  transactionTimeoutMs: number;
  handleAll: (messages: readonly ReceivedMessage<T>[], tx: Tx) => Promise<void>;
}

export type DeliverySettings<T> = SettlingSettings<T> & {
  /**
   * Applies the message once: resolves with true once its effect is committed, false when it was applied
   * before (or is a copy of one applied with it).
   */
  apply: (message: ReceivedMessage<T>) => Promise<boolean>;
};

/** `untrusted`: refused for who published it (the producer check), not for what it holds. */
type Decoded<T> = { ok: true; message: ReceivedMessage<T> } | { ok: false; reason: string; untrusted?: true };

/**
 * Settles one delivery in a consumer span, child of (and linked to) the publish that sent it: the handler's
 * gRPC calls, SQL and outbox rows join the trace of the request that caused the message.
 */
export function processDelivery<T>(
  settings: DeliverySettings<T>,
  channel: ConfirmChannel,
  mover: QueueMover,
  delivery: ConsumeMessage,
): Promise<void> {
  return inMessageSpan(
    {
      name: `process ${settings.queue}`,
      kind: 'consumer',
      parent: delivery.properties.headers,
      attributes: {
        'messaging.operation.name': 'process',
        'messaging.destination.name': settings.queue,
        'messaging.rabbitmq.destination.routing_key': originalRoutingKey(delivery),
        'messaging.message.id': stringProperty(delivery.properties.messageId) ?? '',
        'messaging.consumer.group.name': settings.consumerName,
      },
    },
    async (_headers, span) => {
      const outcome = await settleDelivery(settings, channel, mover, delivery);
      if (outcome !== undefined) span.setAttribute('sika.delivery_outcome', outcome);
    },
  );
}

/**
 * Settles one delivery: applies it once (inbox), or moves it to the retry or dead-letter queue. The
 * delivery is acked only once its outcome is durable (effect committed, or copy confirmed), so a crash at
 * any point leads to a redelivery, never a loss; the inbox makes the redelivery harmless. Answers how it was
 * settled, or undefined when the move failed and the channel was closed.
 */
async function settleDelivery<T>(
  settings: DeliverySettings<T>,
  channel: ConfirmChannel,
  mover: QueueMover,
  delivery: ConsumeMessage,
): Promise<DeliveryOutcome | undefined> {
  const { logger } = settings;
  const attempt = previousAttempts(delivery) + 1;
  const messageId = stringProperty(delivery.properties.messageId);
  const decoded = decode(settings, delivery, attempt);
  let move: { queue: string; headers: Record<string, unknown> };
  if (!decoded.ok) {
    if (decoded.untrusted) {
      const type = stringProperty(delivery.properties.type);
      logger.warn(
        { messageId, type, reason: decoded.reason },
        'message from an unexpected producer, dead-lettering it',
      );
    } else {
      logger.error({ messageId, reason: decoded.reason }, 'poison message, dead-lettering it');
    }
    move = {
      queue: deadLetterQueueName(settings.queue),
      headers: deadHeaders(settings, decoded.reason, attempt),
    };
  } else {
    try {
      const applied = await settings.apply(decoded.message);
      if (!applied) logger.debug({ messageId }, 'duplicate delivery skipped by the inbox');
      ack(logger, channel, delivery);
      const outcome = applied ? 'applied' : 'duplicate';
      settings.settled?.(outcome);
      return outcome;
    } catch (err) {
      const reason = truncateReason(errorMessage(err));
      const giveUp = attempt >= settings.maxAttempts;
      logger.warn({ err, messageId, attempt, giveUp }, 'message handler failed');
      move = giveUp
        ? { queue: deadLetterQueueName(settings.queue), headers: deadHeaders(settings, reason, attempt) }
        : {
            queue: retryQueueName(settings.queue),
            headers: { [HEADERS.attempts]: attempt, [HEADERS.reason]: reason },
          };
    }
  }
  try {
    await mover.move(delivery, move.queue, move.headers);
  } catch (err) {
    // Closing the channel returns every unacked message to the queue, and the broker module reconnects,
    // which declares the retry and dead-letter queues again: the usual cause is one of them missing.
    logger.error({ err, messageId, target: move.queue }, 'moving the message failed, closing the channel');
    channel.close().catch(() => {});
    return undefined;
  }
  ack(logger, channel, delivery);
  const outcome = move.queue === deadLetterQueueName(settings.queue) ? 'dead_lettered' : 'retried';
  settings.settled?.(outcome);
  return outcome;
}

function decode<T>(settings: DeliverySettings<T>, delivery: ConsumeMessage, attempt: number): Decoded<T> {
  const untrusted = settings.checkProducer?.({
    userId: stringProperty(delivery.properties.userId),
    type: stringProperty(delivery.properties.type),
  });
  if (untrusted !== undefined) return { ok: false, reason: untrusted, untrusted: true };
  const id = stringProperty(delivery.properties.messageId);
  if (id === undefined || id === '') return { ok: false, reason: 'message has no messageId' };
  let body: T;
  try {
    body = settings.decode(delivery.content);
  } catch (err) {
    return { ok: false, reason: truncateReason(`decode failed: ${errorMessage(err)}`) };
  }
  const message: ReceivedMessage<T> = {
    id,
    type: stringProperty(delivery.properties.type),
    routingKey: originalRoutingKey(delivery),
    headers: delivery.properties.headers ?? {},
    body,
    attempt,
    // decode runs inside the delivery's consumer span (processDelivery).
    traceHeaders: traceHeaders(),
  };
  return { ok: true, message };
}

/**
 * The inbox's insert, compiled once (PreparedQuery): it runs for every batch of every consumer. One statement
 * whatever the batch's size: one prepared statement, where a values list would be one per size.
 */
const inboxInsert = new PreparedQuery<
  { consumer: string; ids: string[] },
  { message_id: string },
  Kysely<MessagingTables>
>((param, _values, db) =>
  db
    .insertInto('inbox')
    .columns(['consumer', 'message_id'])
    .expression((eb) =>
      eb
        // A function's alias names its one column too: `unnest(…) AS message_id`.
        .selectFrom(sql<{ message_id: string }>`unnest(${param('ids')}::text[])`.as('message_id'))
        .select([eb.val(param('consumer')).as('consumer'), 'message_id']),
    )
    .onConflict((conflict) => conflict.doNothing())
    .returning('message_id'),
);

/**
 * Messages that arrived together, applied in one transaction: their inbox rows in one statement, then `handleAll`
 * of those not applied before (each id once, in delivery order). Answers, for each message, whether this applied
 * it (false: applied before, or a copy of one in the same batch).
 */
export async function applyTogether<T, Tx extends MessagingClient>(
  settings: InboxSettings<T, Tx>,
  messages: readonly ReceivedMessage<T>[],
): Promise<boolean[]> {
  return settings.database.transact(
    async (tx) => {
      const inserted = await inboxInsert.execute(messagingTablesOf(tx), {
        consumer: settings.consumerName,
        ids: messages.map((message) => message.id),
      });
      const fresh = new Set(inserted.map((row) => row.message_id));
      const applied = new Set(
        firstOfEachKey(
          messages.filter((message) => fresh.has(message.id)),
          (message) => message.id,
        ),
      );
      if (applied.size > 0) await settings.handleAll([...applied], tx);
      return messages.map((message) => applied.has(message));
    },
    { timeout: settings.transactionTimeoutMs },
  );
}

function deadHeaders<T>(
  settings: DeliverySettings<T>,
  reason: string,
  attempt: number,
): Record<string, unknown> {
  return {
    [HEADERS.reason]: reason,
    [HEADERS.attempts]: attempt,
    [HEADERS.consumer]: settings.consumerName,
    [HEADERS.deadAt]: new Date().toISOString(),
  };
}

function ack(logger: Logger, channel: ConfirmChannel, delivery: ConsumeMessage): void {
  try {
    channel.ack(delivery);
  } catch (err) {
    // The channel closed after the outcome became durable. The redelivery finds the inbox row, or lands
    // as a duplicate copy in the retry or dead-letter queue; never as a second effect.
    logger.warn({ err, messageId: delivery.properties.messageId }, 'ack failed, message will be redelivered');
  }
}
