import { AmqpConnectionManagerClass } from 'amqp-connection-manager';
import type { AmqpConnectionManager, ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, Options } from 'amqplib';
import type { Component, Logger } from '@sika/platform';

export interface BrokerOptions {
  /** amqp://user:password@host:port/vhost */
  url: string;
  logger: Logger;
  /** A dead peer is noticed after about two missed heartbeats, so keep this short. */
  heartbeatSeconds?: number;
  /** Pause between reconnection attempts. */
  reconnectSeconds?: number;
  /** createBroker fails if the first connection takes longer than this. */
  connectTimeoutMs?: number;
  /** A publish not confirmed within this time rejects, and is removed from the resend queue. */
  publishTimeoutMs?: number;
}

export interface PublishOptions {
  messageId: string;
  type?: string;
  contentType?: string;
  headers?: Readonly<Record<string, unknown>>;
  timeoutMs?: number;
}

/** Runs on every channel (re)open, e.g. to declare topology, before anything is sent on it. */
export type ChannelSetup = (channel: ConfirmChannel) => Promise<void>;

export interface Broker {
  readonly logger: Logger;
  /** The broker user it connects as; every message it publishes carries it as `user_id`. */
  readonly user: string;
  /**
   * Publishes a persistent message and resolves only once the broker confirmed it (publisher confirms).
   * While the connection is down the message waits and is sent again after reconnecting, so delivery is
   * at-least-once: a message whose confirm was lost with the connection can reach the queue twice. Rejects
   * if the broker refuses it (nack) or no confirm came within the publish timeout.
   */
  publish(exchange: string, routingKey: string, content: Uint8Array, options: PublishOptions): Promise<void>;
  /** Declares what publishing relies on (e.g. the events exchange) now and after each reconnect. */
  addPublisherSetup(setup: ChannelSetup): Promise<void>;
  /** A confirm channel of its own (e.g. one per consumer), re-created with `setup` after reconnects. */
  createChannel(name: string, setup: ChannelSetup): ChannelWrapper;
  isConnected(): boolean;
  close(): Promise<void>;
}

const DEFAULTS = {
  heartbeatSeconds: 5,
  reconnectSeconds: 1,
  connectTimeoutMs: 10_000,
  publishTimeoutMs: 10_000,
};

/**
 * RabbitMQ through amqp-connection-manager, which reconnects after broker restarts and dropped connections,
 * re-runs channel setups, and re-sends unconfirmed publishes. Built without I/O; start() makes the first
 * connection (and fails past connectTimeoutMs), stop() closes it: a component of the service that owns it.
 */
export class AmqpBroker implements Broker, Component {
  readonly name = 'broker';
  readonly logger: Logger;
  readonly user: string;
  private readonly settings: Required<Omit<BrokerOptions, 'logger'>>;
  private readonly manager: AmqpConnectionManager;
  private readonly publisher: ChannelWrapper;
  private closed = false;

  constructor(options: BrokerOptions) {
    this.settings = { ...DEFAULTS, ...options };
    this.logger = options.logger;
    this.user = userOf(options.url);
    const logger = this.logger;
    this.manager = new AmqpConnectionManagerClass([options.url], {
      heartbeatIntervalInSeconds: this.settings.heartbeatSeconds,
      reconnectTimeInSeconds: this.settings.reconnectSeconds,
      // amqplib leaves Nagle's algorithm on: a small frame written while an earlier one awaits the broker's
      // (delayed) TCP acknowledgement waited up to 40 ms for it, the acks of a consumer most of all.
      connectionOptions: { noDelay: true },
    });
    this.manager.on('connect', () => logger.info('amqp connected'));
    this.manager.on('disconnect', ({ err }) => logger.warn({ err }, 'amqp disconnected, reconnecting'));
    this.manager.on('connectFailed', ({ err }) => logger.warn({ err }, 'amqp connection attempt failed'));
    this.manager.on('blocked', ({ reason }) =>
      logger.warn({ reason }, 'amqp connection blocked by the broker'),
    );
    this.manager.on('unblocked', () => logger.info('amqp connection unblocked'));
    this.publisher = this.createChannel('publisher', async () => {});
  }

  async start(): Promise<void> {
    try {
      await this.manager.connect({ timeout: this.settings.connectTimeoutMs });
    } catch (err) {
      await this.manager.close();
      throw err;
    }
  }

  stop(): Promise<void> {
    return this.close();
  }

  createChannel(name: string, setup: ChannelSetup): ChannelWrapper {
    let wrapperClosed = false;
    const wrapper = this.manager.createChannel({
      name,
      confirm: true,
      publishTimeout: this.settings.publishTimeoutMs,
      setup: async (channel: ConfirmChannel) => {
        recoverFromLoneChannelClose(this.manager, channel, {
          isClosing: () => this.closed || wrapperClosed,
          delayMs: this.settings.reconnectSeconds * 1000,
          logger: this.logger,
          name,
        });
        await setup(channel);
      },
    });
    wrapper.once('close', () => {
      wrapperClosed = true;
    });
    wrapper.on('error', (err: Error) =>
      this.logger.error({ err, channel: name }, 'amqp channel setup failed'),
    );
    return wrapper;
  }

  async publish(
    exchange: string,
    routingKey: string,
    content: Uint8Array,
    publishOptions: PublishOptions,
  ): Promise<void> {
    const body = Buffer.from(content);
    const deadline = Date.now() + (publishOptions.timeoutMs ?? this.settings.publishTimeoutMs);
    for (;;) {
      const timeout = Math.max(1, deadline - Date.now());
      try {
        await this.publisher.publish(exchange, routingKey, body, {
          ...toAmqpOptions(publishOptions),
          userId: this.user,
          timeout,
        });
        return;
      } catch (err) {
        if (this.closed || !isLostWithChannel(err) || Date.now() >= deadline) throw err;
      }
    }
  }

  addPublisherSetup(setup: ChannelSetup): Promise<void> {
    return this.publisher.addSetup(setup);
  }

  isConnected(): boolean {
    return this.manager.isConnected();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.manager.close();
  }
}

/** A broker already connected (scripts and tests; services add an AmqpBroker to their components). */
export async function createBroker(options: BrokerOptions): Promise<Broker> {
  const broker = new AmqpBroker(options);
  await broker.start();
  return broker;
}

/** amqplib logs in as guest when the URL names no user. */
function userOf(url: string): string {
  return decodeURIComponent(new URL(url).username) || 'guest';
}

function toAmqpOptions(options: PublishOptions): Options.Publish {
  return {
    messageId: options.messageId,
    type: options.type,
    contentType: options.contentType,
    headers: options.headers,
    persistent: true,
  };
}

/**
 * amqplib fails the unconfirmed publishes of a channel that closes with this error, and
 * amqp-connection-manager passes the failure on instead of re-sending. Publishing again queues the message
 * in the channel wrapper until it has reconnected. (The broker may have taken the first copy: at-least-once.)
 */
function isLostWithChannel(err: unknown): boolean {
  return err instanceof Error && err.message === 'channel closed';
}

/**
 * amqp-connection-manager only re-opens channels when the whole connection reconnects; a channel closed
 * alone by a channel-level error (e.g. PRECONDITION_FAILED on a queue declared with other arguments) would
 * stay dead while the connection looks healthy. Forcing a reconnect re-runs every setup, which also logs
 * the failure again if it persists.
 */
function recoverFromLoneChannelClose(
  manager: AmqpConnectionManager,
  channel: ConfirmChannel,
  watch: { isClosing: () => boolean; delayMs: number; logger: Logger; name: string },
): void {
  const connection = manager.connection;
  channel.once('close', () => {
    // Waiting first tells a lone channel close from a connection drop (channels close before their
    // connection reports it), and spaces out reconnects if the setup keeps failing.
    setTimeout(() => {
      if (watch.isClosing() || manager.connection !== connection || !manager.isConnected()) return;
      watch.logger.warn({ channel: watch.name }, 'amqp channel closed on a live connection, reconnecting');
      manager.reconnect();
    }, watch.delayMs).unref();
  });
}
