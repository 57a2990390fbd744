import { createServer } from 'node:net';
import path from 'node:path';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { pspV1 } from '@sika/contracts';
import { declareEventsExchange } from '@sika/messaging';
import {
  createRabbitScope,
  createTestSchema,
  spawnProcess,
  waitFor,
  type RabbitScope,
  type SpawnedProcess,
  type TestSchema,
} from '@sika/testing';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const FIXTURE = path.join(__dirname, 'fixtures/psp-connector-process.ts');

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

/** psp-connector as its own process (see the simulator's support.ts for why not in jest), ready once registered. */
export async function spawnConnector(
  env: Readonly<Record<string, string>>,
  httpPort?: number,
): Promise<ConnectorProcess> {
  httpPort ??= await freePort();
  const httpUrl = `http://127.0.0.1:${httpPort}`;
  const listening = /"grpc_port":(\d+).*"msg":"psp-connector listening"/;
  const spawned = await spawnProcess({
    name: 'psp-connector',
    command: process.execPath,
    args: ['--import', 'tsx', FIXTURE],
    cwd: REPO_ROOT,
    env: {
      TSX_TSCONFIG_PATH: path.join(REPO_ROOT, 'tsconfig.test.json'),
      HTTP_PORT: String(httpPort),
      GRPC_PORT: '0',
      PSP_CALLBACK_PUBLIC_URL: httpUrl,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'info',
      ...env,
    },
    readyWhen: (line) => listening.test(line),
    readyUrl: `${httpUrl}/readyz`,
    ...(process.env.TEST_LOG_LEVEL && { onLine: (line: string) => process.stderr.write(`${line}\n`) }),
  });
  const grpcPort = listening.exec(await spawned.waitForLine((line) => listening.test(line)))?.[1];
  return { process: spawned, grpcAddress: `127.0.0.1:${grpcPort}`, httpUrl };
}

/**
 * A unique exchange (given to the connector as EVENTS_EXCHANGE) and a queue bound to it with
 * psp.payment_request.updated, whose messages are decoded as they arrive.
 */
export class EventsTap {
  readonly received: { messageId: string; routingKey: string; update: pspV1.PaymentRequestUpdated }[] = [];

  private constructor(
    readonly exchange: string,
    private readonly scope: RabbitScope,
    private readonly connection: ChannelModel,
  ) {}

  static async open(): Promise<EventsTap> {
    const scope = await createRabbitScope();
    const exchange = scope.name('psp-test.events');
    const queue = scope.name('psp-test.updates');
    const connection = await connect(scope.amqpUrl);
    const channel: Channel = await connection.createChannel();
    await declareEventsExchange(channel, exchange);
    await channel.assertQueue(queue, { durable: false });
    await channel.bindQueue(queue, exchange, 'psp.payment_request.updated');
    const tap = new EventsTap(exchange, scope, connection);
    await channel.consume(
      queue,
      (message) => {
        if (!message) return;
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
