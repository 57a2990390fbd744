import { createServer } from 'node:net';
import path from 'node:path';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import {
  FUND_RETURN_UPDATES,
  PAYMENT_REQUEST_UPDATES,
  PAYOUT_TRANSFER_REQUESTS,
  PAYOUT_TRANSFER_UPDATES,
  pspV1,
  REFUND_REQUESTS,
  type payoutsV1,
} from '@sika/contracts';
import { declareEventsExchange } from '@sika/messaging';
import {
  createRabbitScope,
  createTestSchema,
  loggedPort,
  spawnService,
  waitFor,
  type RabbitScope,
  type SpawnedProcess,
  type TestSchema,
} from '@sika/testing';

/** A port free right now, for a process that must know its public URL before it listens. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export function createPspSchema(): Promise<TestSchema> {
  return createTestSchema({ prefix: 'psp', migrationsDir: path.join(__dirname, '../prisma/migrations') });
}

export interface ConnectorProcess {
  process: SpawnedProcess;
  grpcAddress: string;
  httpUrl: string;
}

/**
 * psp-connector's real main.ts as its own process, ready once registered at the scheme. The HTTP port is
 * chosen here: the callback URL it registers (PSP_CALLBACK_PUBLIC_URL) must name it before it listens.
 */
export async function spawnConnector(
  env: Readonly<Record<string, string>>,
  httpPort?: number,
): Promise<ConnectorProcess> {
  httpPort ??= await freePort();
  const httpUrl = `http://127.0.0.1:${httpPort}`;
  const spawned = await spawnService('psp-connector', {
    env: { HTTP_PORT: String(httpPort), PSP_CALLBACK_PUBLIC_URL: httpUrl, ...env },
    readyMessage: 'grpc server listening',
    readyUrl: `${httpUrl}/readyz`,
  });
  const grpcPort = await loggedPort(spawned, 'grpc server listening');
  return { process: spawned, grpcAddress: `127.0.0.1:${grpcPort}`, httpUrl };
}

/**
 * A unique exchange (given to the connector as EVENTS_EXCHANGE) and a queue bound to it with
 * psp.payment_request.updated and psp.fund_return.updated, whose messages are decoded as they arrive.
 */
export class EventsTap {
  readonly received: { messageId: string; routingKey: string; update: pspV1.PaymentRequestUpdated }[] = [];
  readonly fundReturns: pspV1.FundReturnUpdated[] = [];
  readonly payoutTransfers: pspV1.PayoutTransferUpdated[] = [];

  private constructor(
    readonly exchange: string,
    private readonly scope: RabbitScope,
    private readonly connection: ChannelModel,
    private readonly channel: Channel,
  ) {}

  /** A queue name of this tap's scope, for a consumer of the connector under test. */
  queueName(base: string): string {
    return this.scope.name(base);
  }

  /** Publishes what payments publishes when money must go back to a customer. */
  requestRefund(request: pspV1.PaymentRequestUpdated['txId'], amount: bigint): void {
    const payload = REFUND_REQUESTS.codec.encode({ livemode: false, txId: request, amount }).finish();
    this.channel.publish(this.exchange, REFUND_REQUESTS.routingKey, Buffer.from(payload), {
      messageId: `msg_${request}`,
      type: REFUND_REQUESTS.messageType,
      persistent: true,
    });
  }

  /** Publishes what payouts publishes once a payout's amount is reserved. */
  requestPayoutTransfer(
    request: payoutsV1.PayoutTransferRequested,
    messageId = `msg_${request.payoutId}`,
  ): void {
    const payload = PAYOUT_TRANSFER_REQUESTS.codec.encode(request).finish();
    this.channel.publish(this.exchange, PAYOUT_TRANSFER_REQUESTS.routingKey, Buffer.from(payload), {
      messageId,
      type: PAYOUT_TRANSFER_REQUESTS.messageType,
      persistent: true,
    });
  }

  async payoutTransferOf(payoutId: string): Promise<pspV1.PayoutTransferUpdated> {
    return waitFor(() => this.payoutTransfers.find((update) => update.payoutId === payoutId), {
      description: `psp.payout_transfer.updated for ${payoutId}`,
    });
  }

  static async open(): Promise<EventsTap> {
    const scope = await createRabbitScope();
    const exchange = scope.name('psp-test.events');
    const queue = scope.name('psp-test.updates');
    const connection = await connect(scope.amqpUrl);
    const channel: Channel = await connection.createChannel();
    await declareEventsExchange(channel, exchange);
    await channel.assertQueue(queue, { durable: false });
    await channel.bindQueue(queue, exchange, PAYMENT_REQUEST_UPDATES.routingKey);
    await channel.bindQueue(queue, exchange, FUND_RETURN_UPDATES.routingKey);
    await channel.bindQueue(queue, exchange, PAYOUT_TRANSFER_UPDATES.routingKey);
    const tap = new EventsTap(exchange, scope, connection, channel);
    await channel.consume(
      queue,
      (message) => {
        if (!message) return;
        if (message.fields.routingKey === PAYOUT_TRANSFER_UPDATES.routingKey) {
          tap.payoutTransfers.push(PAYOUT_TRANSFER_UPDATES.codec.decode(message.content));
          return;
        }
        if (message.fields.routingKey === FUND_RETURN_UPDATES.routingKey) {
          tap.fundReturns.push(FUND_RETURN_UPDATES.codec.decode(message.content));
          return;
        }
        tap.received.push({
          messageId: String(message.properties.messageId),
          routingKey: message.fields.routingKey,
          update: pspV1.PaymentRequestUpdated.decode(message.content),
        });
      },
      { noAck: true },
    );
    return tap;
  }

  for(txId: string): EventsTap['received'] {
    return this.received.filter((message) => message.update.txId === txId);
  }

  async waitFor(txId: string): Promise<EventsTap['received'][number]> {
    const [first] = await waitFor(() => this.for(txId).length > 0 && this.for(txId), {
      description: `psp.payment_request.updated for ${txId}`,
    });
    if (!first) throw new Error('unreachable');
    return first;
  }

  async close(): Promise<void> {
    await this.connection.close();
    await this.scope.cleanup();
  }
}
