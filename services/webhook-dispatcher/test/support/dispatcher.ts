import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { paymentsV1, webhooksV1 } from '@sika/contracts';
import { createBroker, deadLetterQueueName, retryQueueName, type Broker } from '@sika/messaging';
import {
  createGrpcClient,
  createLogger,
  createPrismaClient,
  ManualClock,
  newId,
  type GrpcClient,
  type Logger,
} from '@sika/platform';
import { createRabbitScope, createTestSchema, type RabbitScope, type TestSchema } from '@sika/testing';
import { PrismaClient } from '../../src/generated/prisma/client';
import { SecretBox } from '../../src/infra/secret-box';
import { startWebhookDispatcher, type RunningWebhookDispatcher } from '../../src/service';

export const MIGRATIONS_DIR = path.resolve(__dirname, '../../prisma/migrations');

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** Silent unless TEST_LOG_LEVEL names a level (e.g. `debug` while investigating a failure). */
export function testLogger(): Logger {
  const level = LEVELS.find((candidate) => candidate === process.env.TEST_LOG_LEVEL) ?? 'silent';
  return createLogger({ service: 'webhook-dispatcher-test', level });
}

export interface DispatcherHarness {
  db: TestSchema;
  prisma: PrismaClient;
  secrets: SecretBox;
  clock: ManualClock;
  client: GrpcClient<webhooksV1.WebhooksServiceClient>;
  broker: Broker;
  exchange: string;
  queue: string;
  /** Publishes a PaymentEvent the way payments' outbox relay does; returns the message id. */
  publish(event: paymentsV1.PaymentEvent, messageId?: string): Promise<string>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  timeoutMs: number;
}

/**
 * The dispatcher as main.ts wires it (gRPC, consumer, delivery worker) on a fresh schema, with its own
 * exchange and queue on the real RabbitMQ, a ManualClock, and a short poll interval. Messages are consumed
 * one at a time, so a test knows a message was handled once the next one was.
 */
export async function startDispatcher({ timeoutMs }: HarnessOptions): Promise<DispatcherHarness> {
  const db = await createTestSchema({ prefix: 'webhooks', migrationsDir: MIGRATIONS_DIR });
  const rabbit: RabbitScope = await createRabbitScope();
  const exchange = rabbit.name('webhooks-test.events');
  const queue = rabbit.name('webhooks-test.payment-events');
  rabbit.track(retryQueueName(queue));
  rabbit.track(deadLetterQueueName(queue));

  const logger = testLogger();
  const prisma = createPrismaClient(PrismaClient, { url: db.databaseUrl, schema: db.schema });
  const broker = await createBroker({ url: rabbit.amqpUrl, logger });
  const secrets = new SecretBox(randomBytes(32));
  const clock = new ManualClock(new Date('2026-03-01T09:00:00.000Z'));
  const dispatcher: RunningWebhookDispatcher = await startWebhookDispatcher({
    prisma,
    broker,
    secrets,
    clock,
    logger,
    host: '127.0.0.1',
    grpcPort: 0,
    delivery: { timeoutMs, userAgent: 'Sika-Webhooks/1.0', pollIntervalMs: 20, concurrency: 4 },
    events: { exchange, queue, prefetch: 1 },
  });
  const client = createGrpcClient(webhooksV1.WebhooksServiceClient, `127.0.0.1:${dispatcher.grpc.port}`, {
    deadlineMs: 5_000,
  });

  return {
    db,
    prisma,
    secrets,
    clock,
    client,
    broker,
    exchange,
    queue,
    async publish(event, messageId = newId('msg')) {
      await broker.publish(
        exchange,
        `payments.${event.type}`,
        paymentsV1.PaymentEvent.encode(event).finish(),
        {
          messageId,
          type: 'sika.payments.v1.PaymentEvent',
        },
      );
      return messageId;
    },
    async close() {
      client.close();
      await dispatcher.grpc.shutdown(1_000);
      await dispatcher.consumer.close();
      await dispatcher.worker.stop();
      await broker.close();
      await prisma.$disconnect();
      await rabbit.cleanup();
      await db.drop();
    },
  };
}

/** A payment of `merchantId` as payments publishes it, with metadata. */
export function paymentEvent(
  merchantId: string,
  type: string,
  overrides: Partial<paymentsV1.Payment> = {},
): paymentsV1.PaymentEvent {
  const id = newId('pay');
  const at = new Date('2026-03-01T08:59:00.000Z');
  return {
    type,
    occurredAt: at,
    payment: paymentsV1.Payment.fromPartial({
      id,
      merchantId,
      livemode: false,
      status: paymentsV1.PaymentStatus.PAYMENT_STATUS_SUCCEEDED,
      amount: 10_000n,
      currency: 'XOF',
      feeAmount: 150n,
      netAmount: 9_850n,
      mode: paymentsV1.PaymentMode.PAYMENT_MODE_IMMEDIATE,
      reference: 'order-42',
      payerAliasMasked: '+225 00******01',
      checkoutUrl: `http://127.0.0.1:8081/pay/${id}`,
      returnUrl: 'https://shop.example/return',
      expiresAt: new Date(at.getTime() + 5 * 60_000),
      createdAt: at,
      metadata: { order_id: '42', customer: 'Awa' },
      ...overrides,
    }),
  };
}
