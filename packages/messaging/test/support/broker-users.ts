import { randomBytes } from 'node:crypto';
import { connect, type ChannelModel, type ConfirmChannel, type Options } from 'amqplib';
import { randomSuffix, resolveAmqpUrl } from '@sika/testing';
import { withDatabase, withLogin } from '../../../../scripts/db/urls';
import { findBrokerAdmin, type BrokerAdmin } from '../../../../scripts/stack/broker-users';
import { BROKER_SERVICES, brokerDefinitions, brokerUser, type BrokerService } from '../../src';

/**
 * A vhost of its own with every service's user in it, provisioned as the local stack provisions them
 * (scripts/stack/broker-users.ts, the same definitions), under a prefix of its own so that runs never share
 * users. The administrator of the test broker gets every right in the vhost, to arrange and inspect.
 */
export class BrokerUsers {
  private readonly connections: ChannelModel[] = [];

  private constructor(
    private readonly admin: BrokerAdmin,
    private readonly amqpUrl: string,
    readonly vhost: string,
    readonly prefix: string,
    private readonly passwords: ReadonlyMap<BrokerService, string>,
  ) {}

  static async provision(): Promise<BrokerUsers> {
    const amqpUrl = await resolveAmqpUrl();
    const found = await findBrokerAdmin({
      adminUrl: amqpUrl,
      managementUrl: process.env.RABBITMQ_MANAGEMENT_URL,
    });
    if ('unavailable' in found)
      throw new Error(`these tests create broker users, and cannot: ${found.unavailable}`);
    const suffix = randomSuffix();
    const users = new BrokerUsers(
      found.admin,
      amqpUrl,
      `sika-test-${suffix}`,
      `t${suffix}-`,
      new Map(BROKER_SERVICES.map((service) => [service, randomBytes(16).toString('hex')])),
    );
    const definitions = brokerDefinitions({
      vhost: users.vhost,
      prefix: users.prefix,
      passwordOf: (service) => users.passwords.get(service)!,
    });
    const administrator = decodeURIComponent(new URL(amqpUrl).username) || 'guest';
    definitions.permissions.push({
      user: administrator,
      vhost: users.vhost,
      configure: '.*',
      write: '.*',
      read: '.*',
    });
    await found.admin.importDefinitions(definitions);
    return users;
  }

  user(service: BrokerService): string {
    return brokerUser(service, this.prefix);
  }

  /** An AMQP URL's path is its vhost, as a Postgres URL's is its database. */
  urlOf(service: BrokerService): string {
    return withLogin(
      withDatabase(this.amqpUrl, this.vhost),
      this.user(service),
      this.passwords.get(service)!,
    );
  }

  adminUrl(): string {
    return withDatabase(this.amqpUrl, this.vhost);
  }

  /** A plain amqplib confirm channel as the service's user (or the administrator), closed by drop(). */
  async channelAs(service: BrokerService | 'administrator'): Promise<RefusableChannel> {
    const connection = await connect(service === 'administrator' ? this.adminUrl() : this.urlOf(service));
    // A refusal closes the channel, not the connection; without a listener its 'error' would crash jest.
    connection.on('error', () => {});
    this.connections.push(connection);
    return RefusableChannel.open(connection);
  }

  async drop(): Promise<void> {
    for (const connection of this.connections) await connection.close().catch(() => {});
    await this.admin.deleteVhost(this.vhost);
    for (const service of BROKER_SERVICES) await this.admin.deleteUser(this.user(service));
  }
}

/** A confirm channel whose refusal by the broker (it closes the channel) is kept for the test to read. */
export class RefusableChannel {
  /** Resolves with the error the broker closed the channel with. */
  readonly refused: Promise<Error & { code?: number }>;

  private constructor(readonly channel: ConfirmChannel) {
    this.refused = new Promise((resolve) => channel.once('error', resolve));
  }

  static async open(connection: ChannelModel): Promise<RefusableChannel> {
    return new RefusableChannel(await connection.createConfirmChannel());
  }

  /** Resolves once the broker confirmed the message; rejects when it refused it. */
  publish(exchange: string, routingKey: string, content: Buffer, options: Options.Publish): Promise<void> {
    return new Promise((resolve, reject) =>
      this.channel.publish(exchange, routingKey, content, options, (err: unknown) =>
        err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(),
      ),
    );
  }
}
