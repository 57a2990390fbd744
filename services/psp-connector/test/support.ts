import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
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
import { deadLetterQueueName, declareEventsExchange, retryQueueName } from '@sika/messaging';
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

import { TRANSFER_RETRY_DELAYS_MS } from '../src/domain/payout-transfer';

/** The retry schedule's second pause, and time for the exchanges around it on a busy machine. */
const PAYOUT_TRANSFER_WAIT_MS = TRANSFER_RETRY_DELAYS_MS[1] + 15_000;

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

/** The key a spawned connector seals callback secrets with, unless a test gives its own. */
export const CALLBACK_SECRET_KEY = randomBytes(32).toString('base64');

export interface ConnectorProcess {
  process: SpawnedProcess;
  grpcAddress: string;
  httpUrl: string;
  /** The operations port: /readyz and /metrics. */
  opsUrl: string;
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
  const opsPort = await freePort();
  const spawned = await spawnService('psp-connector', {
    env: {
      HTTP_PORT: String(httpPort),
      METRICS_PORT: String(opsPort),
      PSP_CALLBACK_PUBLIC_URL: httpUrl,
      CALLBACK_SECRET_KEY,
      ...env,
    },
    readyMessage: 'grpc server listening',
    readyUrl: `http://127.0.0.1:${opsPort}/readyz`,
  });
  const grpcPort = await loggedPort(spawned, 'grpc server listening');
  return {
    process: spawned,
    grpcAddress: `127.0.0.1:${grpcPort}`,
    httpUrl,
    opsUrl: `http://127.0.0.1:${opsPort}`,
  };
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

  /**
   * A queue name of this tap's scope, for a consumer of the connector under test; its retry and dead-letter
   * queues are deleted with it.
   */
  queueName(base: string): string {
    const name = this.scope.name(base);
    this.scope.track(retryQueueName(name));
    this.scope.track(deadLetterQueueName(name));
    return name;
  }

  /** Publishes what payments publishes when a transfer received on an attempt must go back to the customer. */
  requestRefund(txId: string, endToEndId: string, amount: bigint): void {
    const payload = REFUND_REQUESTS.codec.encode({ livemode: false, txId, endToEndId, amount }).finish();
    this.channel.publish(this.exchange, REFUND_REQUESTS.routingKey, Buffer.from(payload), {
      messageId: `msg_${endToEndId}`,
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

  /**
   * Waits past the second pause of the transfers' retry schedule: on a busy machine one exchange of a faulty
   * path may outlast PISPI_TIMEOUT, and the transfer then settles only after that pause.
   */
  async payoutTransferOf(payoutId: string): Promise<pspV1.PayoutTransferUpdated> {
    return waitFor(() => this.payoutTransfers.find((update) => update.payoutId === payoutId), {
      description: `psp.payout_transfer.updated for ${payoutId}`,
      timeoutMs: PAYOUT_TRANSFER_WAIT_MS,
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

/** What a FaultyLink does to one exchange instead of relaying it faithfully. */
export type Fault =
  /** Answers this status with an RFC 7807 body, without relaying: nothing reaches the other side. */
  | { kind: 'answer'; status: number; problem?: Record<string, unknown> }
  /** Relays, then resets the connection: the request was processed, its answer is lost. */
  | { kind: 'reset_after' }
  /** Relays, then answers 502 in place of the real answer: processed, answer lost. */
  | { kind: 'bad_gateway_after' }
  /** Relays, then never answers: processed, and the caller times out. */
  | { kind: 'hang_after' }
  /** Answers 200 without relaying: the sender believes it delivered (a callback lost on the way). */
  | { kind: 'swallow' };

interface FaultRule {
  method: string;
  path: string;
  /** Only exchanges whose body contains this (a txId …). */
  bodyIncludes: string | undefined;
  fault: Fault;
  /** How many matching exchanges it still applies to. */
  remaining: number;
}

/** Headers that belong to one connection, not to the message: the relay's own connection sets them. */
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

function relayedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name, value]) => !HOP_BY_HOP.has(name) && typeof value === 'string')
      .map(([name, value]) => [name, String(value)]),
  );
}

/**
 * An HTTP relay between two real processes (psp-connector and the simulator, either way) that can spoil
 * chosen exchanges: lose an answer after the other side processed the request, answer a refusal in its
 * place, or swallow a callback. Records every exchange it saw, so a test can tell what was sent and read.
 */
export class FaultyLink {
  readonly seen: { method: string; path: string; body: string }[] = [];
  private readonly rules: FaultRule[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private readonly server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void this.relay(
        request.method ?? 'GET',
        request.url ?? '/',
        request.headers,
        Buffer.concat(chunks),
        response,
      );
    });
  });

  constructor(private readonly target: string) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Spoils the next `times` exchanges with this method and path (and body content, if given). */
  inject(rule: { method: string; path: string; bodyIncludes?: string; fault: Fault; times?: number }): void {
    this.rules.push({ ...rule, bodyIncludes: rule.bodyIncludes, remaining: rule.times ?? 1 });
  }

  /** The exchanges seen whose path or body mentions `text`, as `METHOD path`. */
  exchangesAbout(text: string): string[] {
    return this.seen
      .filter((exchange) => exchange.path.includes(text) || exchange.body.includes(text))
      .map((exchange) => `${exchange.method} ${exchange.path}`);
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private takeFault(method: string, path: string, body: string): Fault | undefined {
    const rule = this.rules.find(
      (candidate) =>
        candidate.remaining > 0 &&
        candidate.method === method &&
        candidate.path === path &&
        (candidate.bodyIncludes === undefined || body.includes(candidate.bodyIncludes)),
    );
    if (!rule) return undefined;
    rule.remaining -= 1;
    return rule.fault;
  }

  private async relay(
    method: string,
    path: string,
    headers: IncomingHttpHeaders,
    body: Buffer,
    response: ServerResponse,
  ): Promise<void> {
    this.seen.push({ method, path, body: body.toString('utf8') });
    const fault = this.takeFault(method, path, body.toString('utf8'));
    const problem = (status: number, extra: Record<string, unknown> = {}): void => {
      response
        .writeHead(status, { 'content-type': 'application/problem+json' })
        .end(JSON.stringify({ type: 'about:blank', status, ...extra }));
    };
    if (fault?.kind === 'answer') return problem(fault.status, fault.problem);
    if (fault?.kind === 'swallow') {
      response.writeHead(200).end();
      return;
    }
    let upstream: Response;
    try {
      upstream = await fetch(`${this.target}${path}`, {
        method,
        headers: relayedHeaders(headers),
        body: method === 'GET' || method === 'HEAD' ? undefined : body,
      });
    } catch {
      return problem(502, { title: 'Bad Gateway' });
    }
    const answer = Buffer.from(await upstream.arrayBuffer());
    switch (fault?.kind) {
      case 'reset_after':
        response.socket?.destroy();
        return;
      case 'bad_gateway_after':
        return problem(502, { title: 'Bad Gateway' });
      case 'hang_after':
        this.hanging.add(response);
        return;
      default: {
        const contentType = upstream.headers.get('content-type');
        response.writeHead(upstream.status, contentType ? { 'content-type': contentType } : {}).end(answer);
      }
    }
  }
}
