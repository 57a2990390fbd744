import { connect, type Channel, type ChannelModel } from 'amqplib';
import { resolveAmqpUrl } from './infra';
import { randomSuffix } from './random';

/** `<prefix>.<random>`: tests declare their own exchanges and queues, so they never share messages. */
export function uniqueName(prefix: string): string {
  return `${prefix}.${randomSuffix()}`;
}

export interface RabbitNames {
  /** Queues and exchanges to delete; names that do not exist (any more) are fine. */
  queues?: readonly string[];
  exchanges?: readonly string[];
}

/**
 * Deletes queues and exchanges a test declared. The broker drops a channel at the first error, so every
 * failure is collected and the channel reopened: one bad name does not keep the others alive.
 */
export async function deleteRabbitObjects(amqpUrl: string, names: RabbitNames): Promise<void> {
  const connection: ChannelModel = await connect(amqpUrl);
  const failures: Error[] = [];
  try {
    let channel: Channel = await connection.createChannel();
    const deletions = [
      ...(names.queues ?? []).map((name) => (ch: Channel) => ch.deleteQueue(name)),
      ...(names.exchanges ?? []).map((name) => (ch: Channel) => ch.deleteExchange(name)),
    ];
    for (const deletion of deletions) {
      try {
        await deletion(channel);
      } catch (error) {
        failures.push(error as Error);
        channel = await connection.createChannel();
      }
    }
  } finally {
    await connection.close();
  }
  if (failures.length > 0) throw new AggregateError(failures, 'deleting RabbitMQ test objects failed');
}

export interface RabbitScope {
  amqpUrl: string;
  /** A unique name, remembered for cleanup() both as a queue and as an exchange. */
  name(prefix: string): string;
  /** Remembers a name made elsewhere (e.g. a dead-letter queue derived from a queue name). */
  track(name: string): void;
  /** Deletes every queue and exchange named by this scope. */
  cleanup(): Promise<void>;
}

/**
 * Names for one test and their removal afterwards. Isolation is by name rather than by vhost because vhosts
 * can only be created through the management plugin or rabbitmqctl, which a plain AMQP user may not have.
 */
export async function createRabbitScope(options: { amqpUrl?: string } = {}): Promise<RabbitScope> {
  const amqpUrl = options.amqpUrl ?? (await resolveAmqpUrl());
  const names = new Set<string>();
  return {
    amqpUrl,
    name: (prefix) => {
      const name = uniqueName(prefix);
      names.add(name);
      return name;
    },
    track: (name) => {
      names.add(name);
    },
    cleanup: async () => {
      const all = [...names];
      names.clear();
      await deleteRabbitObjects(amqpUrl, { queues: all, exchanges: all });
    },
  };
}
