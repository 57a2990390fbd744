import type { ConfirmChannel, ConsumeMessage, Message, Options } from 'amqplib';
import { HEADERS, originalRoutingKey, stringProperty } from './headers';

/**
 * Copies a delivered message to another queue (retry or dead-letter) through the default exchange and
 * resolves once the broker confirmed the copy, so the original may then be acked.
 *
 * A confirm alone does not prove the copy was stored: a message routed to no queue (say the dead-letter
 * queue was deleted) is confirmed and dropped. Publishing it `mandatory` makes the broker return it first,
 * which fails the move instead.
 */
export class QueueMover {
  /** Returned copies not yet matched with their confirm, by queue and message id. */
  private readonly returned = new Map<string, number>();

  /**
   * `userId` is the consumer's own broker user: the copy is the consumer's publish, and RabbitMQ refuses any
   * other `user_id` on it. The producer's was checked before the first try (delivery.ts).
   */
  constructor(
    private readonly channel: ConfirmChannel,
    private readonly userId: string,
  ) {
    channel.on('return', (message: Message) => {
      const key = returnKey(message.fields.routingKey, stringProperty(message.properties.messageId));
      this.returned.set(key, (this.returned.get(key) ?? 0) + 1);
    });
  }

  async move(delivery: ConsumeMessage, queue: string, extraHeaders: Record<string, unknown>): Promise<void> {
    const properties = delivery.properties;
    const messageId = stringProperty(properties.messageId);
    const options: Options.Publish = {
      messageId,
      userId: this.userId,
      type: stringProperty(properties.type),
      contentType: stringProperty(properties.contentType),
      timestamp: typeof properties.timestamp === 'number' ? properties.timestamp : undefined,
      persistent: true,
      mandatory: true,
      headers: { ...properties.headers, [HEADERS.routingKey]: originalRoutingKey(delivery), ...extraHeaders },
    };
    await new Promise<void>((resolve, reject) => {
      this.channel.sendToQueue(queue, delivery.content, options, (err: unknown) =>
        err ? reject(err) : resolve(),
      );
    });
    // RabbitMQ sends basic.return before the confirm of the same message, so it has been counted by now.
    if (this.takeReturned(returnKey(queue, messageId))) throw new Error(`queue ${queue} does not exist`);
  }

  private takeReturned(key: string): boolean {
    const count = this.returned.get(key) ?? 0;
    if (count === 0) return false;
    if (count === 1) this.returned.delete(key);
    else this.returned.set(key, count - 1);
    return true;
  }
}

function returnKey(queue: string, messageId: string | undefined): string {
  return `${queue}\n${messageId ?? ''}`;
}
