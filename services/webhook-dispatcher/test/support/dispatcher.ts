import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { PAYMENT_EVENTS, PAYOUT_EVENTS, paymentsV1, payoutsV1, webhooksV1 } from '@sika/contracts';
import { createBroker, deadLetterQueueName, retryQueueName } from '@sika/messaging';
import {
  createGrpcClient,
  createLogger,
  loadConfig,
  ManualClock,
  newId,
  type GrpcClient,
  type Logger,
} from '@sika/platform';
import {
  clientOfAllowedCallers,
  createRabbitScope,
  createTestSchema,
  testIdentity,
  type RabbitScope,
  type TestSchema,
} from '@sika/testing';
import { composeWebhookDispatcher } from '../../src/compose';
import { configSchema } from '../../src/config';
import { WEBHOOKS_CALLERS } from '../../src/transport/grpc/callers';

export const MIGRATIONS_DIR = path.resolve(__dirname, '../../prisma/migrations');

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** Silent unless TEST_LOG_LEVEL names a level (e.g. `debug` while investigating a failure). */
export function testLogger(): Logger {
  const level = LEVELS.find((candidate) => candidate === process.env.TEST_LOG_LEVEL) ?? 'silent';
  return createLogger({ service: 'webhook-dispatcher-test', level });
}

export interface DispatcherHarness {
  db: TestSchema;
  clock: ManualClock;
  client: GrpcClient<webhooksV1.WebhooksServiceClient>;
  queue: string;
  /** Publishes a PaymentEvent the way payments' outbox relay does; returns the message id. */
  publish(event: paymentsV1.PaymentEvent, messageId?: string): Promise<string>;
  /** Publishes a PayoutEvent the way payouts' outbox relay does. */
  publishPayout(event: payoutsV1.PayoutEvent): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  timeoutMs: number;
  /**
   * WEBHOOK_ALLOW_PRIVATE_TARGETS: true by default, since the receivers of these tests listen on 127.0.0.1;
   * false to test the target rules as deployed.
   */
  allowPrivateTargets?: boolean;
  /** WEBHOOK_SECRET_KEY and WEBHOOK_SECRET_PREVIOUS_KEYS: a random key and none by default. */
  secretKeys?: { current: Buffer; previous: readonly Buffer[] };
  /** Other variables of the dispatcher (WEBHOOK_DNS_SERVERS …). */
  env?: Readonly<Record<string, string>>;
}

/**
 * The dispatcher as main.ts composes it (gRPC, consumer, delivery loop) on a fresh schema, with its own
 * exchange and queue on the real RabbitMQ, a ManualClock, and a short poll interval. Messages are consumed
 * one at a time, so a test knows a message was handled once the next one was.
 */
export async function startDispatcher({
  timeoutMs,
  allowPrivateTargets = true,
  secretKeys = { current: randomBytes(32), previous: [] },
  env = {},
}: HarnessOptions): Promise<DispatcherHarness> {
  const db = await createTestSchema({ prefix: 'webhooks', migrationsDir: MIGRATIONS_DIR });
  const rabbit: RabbitScope = await createRabbitScope();
  const exchange = rabbit.name('webhooks-test.events');
  const queue = rabbit.name('webhooks-test.payment-events');
  const payoutQueue = rabbit.name('webhooks-test.payout-events');
  for (const name of [queue, payoutQueue]) {
    rabbit.track(retryQueueName(name));
    rabbit.track(deadLetterQueueName(name));
  }

  const logger = testLogger();
  const clock = new ManualClock(new Date('2026-03-01T09:00:00.000Z'));
  const config = loadConfig(configSchema, {
    DATABASE_URL: db.databaseUrl,
    DATABASE_SCHEMA: db.schema,
    AMQP_URL: rabbit.amqpUrl,
    WEBHOOK_SECRET_KEY: secretKeys.current.toString('base64'),
    WEBHOOK_SECRET_PREVIOUS_KEYS: secretKeys.previous.map((key) => key.toString('hex')).join(','),
    GRPC_PORT: '0',
    METRICS_PORT: '0',
    WEBHOOK_TIMEOUT: `${timeoutMs}ms`,
    WEBHOOK_POLL_INTERVAL: '20ms',
    WEBHOOK_CONCURRENCY: '4',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: String(allowPrivateTargets),
    EVENTS_EXCHANGE: exchange,
    PAYMENT_EVENTS_QUEUE: queue,
    PAYOUT_EVENTS_QUEUE: payoutQueue,
    ...(await testIdentity('webhook-dispatcher')).env,
    ...env,
  });
  const dispatcher = composeWebhookDispatcher(config, {
    clock,
    logger,
    prefetch: 1,
  });
  await dispatcher.start();
  const publisher = await createBroker({ url: rabbit.amqpUrl, logger });
  // Each method called as a caller the service allows (the dashboard's methods as dashboard-web, audits as cli).
  const client = await clientOfAllowedCallers(WEBHOOKS_CALLERS, (tls) =>
    createGrpcClient(webhooksV1.WebhooksServiceClient, `127.0.0.1:${dispatcher.grpc.port}`, {
      deadlineMs: 5_000,
      tls,
    }),
  );

  return {
    db,
    clock,
    client,
    queue,
    async publish(event, messageId = newId('msg')) {
      await publisher.publish(
        exchange,
        PAYMENT_EVENTS.routingKey(event.type),
        PAYMENT_EVENTS.codec.encode(event).finish(),
        { messageId, type: PAYMENT_EVENTS.messageType },
      );
      return messageId;
    },
    async publishPayout(event) {
      await publisher.publish(
        exchange,
        PAYOUT_EVENTS.routingKey(event.type),
        PAYOUT_EVENTS.codec.encode(event).finish(),
        { messageId: newId('msg'), type: PAYOUT_EVENTS.messageType },
      );
    },
    async close() {
      client.close();
      await dispatcher.stop();
      await publisher.close();
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

/** A payout of `merchantId` as payouts publishes it when it ends. */
export function payoutEvent(
  merchantId: string,
  type: 'payout.paid' | 'payout.failed',
): payoutsV1.PayoutEvent {
  const at = new Date('2026-03-01T08:59:00.000Z');
  return {
    type,
    occurredAt: at,
    payout: payoutsV1.Payout.fromPartial({
      id: newId('po'),
      merchantId,
      livemode: false,
      amount: 4_000n,
      currency: 'XOF',
      status:
        type === 'payout.paid'
          ? payoutsV1.PayoutStatus.PAYOUT_STATUS_PAID
          : payoutsV1.PayoutStatus.PAYOUT_STATUS_FAILED,
      method: payoutsV1.PayoutMethod.PAYOUT_METHOD_AUTOMATIC,
      destination: {
        aliasType: payoutsV1.AliasType.ALIAS_TYPE_PHONE,
        aliasMasked: '+225 00******00',
        holderName: 'Marchand Test Sika',
      },
      createdAt: at,
      ...(type === 'payout.paid' ? { paidAt: at } : { failureCode: 'account_frozen' }),
    }),
  };
}
