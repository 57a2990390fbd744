import { connect, type Channel, type ChannelModel, type GetMessage } from 'amqplib';
import { createRabbitScope, type RabbitScope } from '@sika/testing';
import { deadLetterQueueName, retryQueueName } from '../../src';

/**
 * A plain amqplib connection for arranging and inspecting the broker from the test, independent of the
 * code under test, plus the names the test declared, deleted in cleanup().
 */
export class RabbitAdmin {
  private constructor(
    private readonly scope: RabbitScope,
    private readonly connection: ChannelModel,
    readonly channel: Channel,
  ) {}

  static async open(): Promise<RabbitAdmin> {
    const scope = await createRabbitScope();
    const connection = await connect(scope.amqpUrl);
    // A test may close the connection on purpose; without a listener an 'error' event would crash jest.
    connection.on('error', () => {});
    return new RabbitAdmin(scope, connection, await connection.createChannel());
  }

  get amqpUrl(): string {
    return this.scope.amqpUrl;
  }

  /** Names of an exchange and a consumer queue for one test; cleanup() removes them, retry queue and DLQ. */
  names(prefix: string): { exchange: string; queue: string } {
    const exchange = this.scope.name(`${prefix}.events`);
    const queue = this.scope.name(`${prefix}.queue`);
    this.scope.track(retryQueueName(queue));
    this.scope.track(deadLetterQueueName(queue));
    return { exchange, queue };
  }

  /** Takes every message currently in the queue. */
  async drain(queue: string): Promise<GetMessage[]> {
    const messages: GetMessage[] = [];
    for (;;) {
      const message = await this.channel.get(queue, { noAck: true });
      if (message === false) return messages;
      messages.push(message);
    }
  }

  /** 0 for a queue that does not exist (yet). Probes on a channel of its own: a 404 closes the channel. */
  async messageCount(queue: string): Promise<number> {
    const probe = await this.connection.createChannel();
    probe.on('error', () => {});
    try {
      return (await probe.checkQueue(queue)).messageCount;
    } catch {
      return 0;
    } finally {
      await probe.close().catch(() => {});
    }
  }

  async cleanup(): Promise<void> {
    await this.connection.close();
    await this.scope.cleanup();
  }
}
