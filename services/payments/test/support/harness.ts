import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { connect } from 'amqplib';
import type { Channel, ChannelModel } from 'amqplib';
import { FUND_RETURN_UPDATES, PAYMENT_REQUEST_UPDATES, paymentsV1, pspV1 } from '@sika/contracts';
import type { merchantsV1 } from '@sika/contracts';
import {
  AppError,
  createGrpcClient,
  createLogger,
  loadConfig,
  ManualClock,
  newId,
  valueOrError,
} from '@sika/platform';
import type { GrpcCallOptions, GrpcClient, LogLevel } from '@sika/platform';
import {
  clientOfAllowedCallers,
  createRabbitScope,
  createTestSchema,
  resolveInfra,
  testIdentity,
} from '@sika/testing';
import type { RabbitScope, TestSchema } from '@sika/testing';
import { configSchema } from '../../src/config';
import { composePayments, type Payments } from '../../src/compose';
import { PAYMENTS_CALLERS } from '../../src/transport/grpc/callers';
import { EventTap } from './events';
import { startPeers } from './peers';
import type { Peers } from './peers';

const MIGRATIONS_DIR = path.join(__dirname, '../../prisma/migrations');
/** The CHECKOUT_TOKEN_KEY the tests' payments signs checkout URLs with. */
export const CHECKOUT_TOKEN_KEY = 'test-checkout-token-key-0123456789abcdef';
/** The PAYER_ALIAS_KEY the tests' payments seals aliases with (32 bytes, hex). */
export const PAYER_ALIAS_KEY = 'a1'.repeat(32);

export type PaymentsClient = GrpcClient<paymentsV1.PaymentsServiceClient>;

export interface Scope {
  merchantId: string;
  livemode: boolean;
}

export interface HarnessOptions {
  consumerMaxAttempts?: number;
  consumerRetryDelayMs?: number;
}

/**
 * The payments service in-process on real Postgres (a schema of its own, migrated) and RabbitMQ (an exchange
 * and queues of their own), its gRPC server on port 0, real gRPC test peers, and a ManualClock.
 */
export class Harness {
  private constructor(
    readonly clock: ManualClock,
    readonly client: PaymentsClient,
    readonly peers: Peers,
    readonly service: Payments,
    readonly db: TestSchema,
    readonly events: EventTap,
    readonly rabbit: RabbitScope,
    readonly exchange: string,
    readonly pspUpdatesQueue: string,
    readonly fundReturnsQueue: string,
    private readonly publisher: { connection: ChannelModel; channel: Channel },
  ) {}

  static async start(name: string, options: HarnessOptions = {}): Promise<Harness> {
    const infra = await resolveInfra();
    const logger = createLogger({
      service: `payments-test-${name}`,
      level: (process.env.TEST_LOG_LEVEL ?? 'silent') as LogLevel,
    });
    const db = await createTestSchema({ prefix: `payments_${name}`, migrationsDir: MIGRATIONS_DIR });
    const rabbit = await createRabbitScope({ amqpUrl: infra.amqpUrl });
    const exchange = rabbit.name('payments-test');
    const pspUpdatesQueue = rabbit.name('payments.psp-updates');
    rabbit.track(`${pspUpdatesQueue}.retry`);
    rabbit.track(`${pspUpdatesQueue}.dlq`);
    const fundReturnsQueue = rabbit.name('payments-fund-returns');
    rabbit.track(`${fundReturnsQueue}.retry`);
    rabbit.track(`${fundReturnsQueue}.dlq`);
    const peers = await startPeers(logger);
    const clock = new ManualClock(new Date());
    const config = loadConfig(configSchema, {
      GRPC_PORT: '0',
      METRICS_PORT: '0',
      DATABASE_URL: infra.databaseUrl,
      DATABASE_SCHEMA: db.schema,
      AMQP_URL: infra.amqpUrl,
      PSP_CONNECTOR_GRPC_ADDRESS: peers.addresses.psp,
      MERCHANTS_GRPC_ADDRESS: peers.addresses.merchants,
      CHECKOUT_BASE_URL: 'http://checkout.test/',
      CHECKOUT_TOKEN_KEY,
      PAYER_ALIAS_KEY,
      EXPIRY_POLL_INTERVAL: '50ms',
      ATTEMPT_SWEEP_INTERVAL: '50ms',
      ...(await testIdentity('payments')).env,
    });
    const events = await EventTap.open(infra.amqpUrl, exchange, rabbit.name('payments-tap'));
    const service = composePayments(config, {
      logger,
      clock,
      topology: {
        exchange,
        queue: pspUpdatesQueue,
        retryDelayMs: options.consumerRetryDelayMs ?? 100,
        maxAttempts: options.consumerMaxAttempts ?? 5,
      },
      fundReturnsTopology: {
        exchange,
        queue: fundReturnsQueue,
        retryDelayMs: options.consumerRetryDelayMs ?? 100,
        maxAttempts: options.consumerMaxAttempts ?? 5,
      },
    });
    await service.start();
    // Each method called as a caller payments allows (createPayments as gateway, startAttempt as checkout-web …).
    const client = await clientOfAllowedCallers(PAYMENTS_CALLERS, (tls) =>
      createGrpcClient(paymentsV1.PaymentsServiceClient, `127.0.0.1:${service.grpc.port}`, {
        deadlineMs: 10_000,
        tls,
      }),
    );
    const connection = await connect(infra.amqpUrl);
    const channel = await connection.createChannel();
    return new Harness(
      clock,
      client,
      peers,
      service,
      db,
      events,
      rabbit,
      exchange,
      pspUpdatesQueue,
      fundReturnsQueue,
      {
        connection,
        channel,
      },
    );
  }

  /** A merchant known to the merchants peer, with its fee rule (default 1.5 % + 25 XOF). */
  newMerchant(feeRule: merchantsV1.FeeRule = { rateBps: 150, fixedAmount: 25n }): string {
    const merchantId = newId('mer');
    this.peers.merchants.feeRules.set(merchantId, feeRule);
    return merchantId;
  }

  /** A creation as the gateway sends it: 10,000 XOF, immediate, one metadata entry, unless `overrides` say. */
  creationRequest(
    scope: Scope,
    overrides: Partial<paymentsV1.CreatePaymentRequest> = {},
  ): paymentsV1.CreatePaymentRequest {
    return {
      scope,
      requestFingerprint: 'fp',
      amount: 10_000n,
      currency: 'XOF',
      mode: paymentsV1.PaymentMode.PAYMENT_MODE_IMMEDIATE,
      returnUrl: 'https://shop.example/return',
      metadata: { order_id: '42' },
      ...overrides,
    };
  }

  /** One payment through CreatePayments; a failure throws its AppError. */
  async create(
    scope: Scope,
    overrides: Partial<paymentsV1.CreatePaymentRequest> = {},
    options: GrpcCallOptions = {},
  ): Promise<paymentsV1.Payment> {
    const request = this.creationRequest(scope, overrides);
    const { outcomes } = await this.client.createPayments(
      { creations: [{ requestId: '', request }] },
      options,
    );
    if (outcomes.length !== 1) throw new Error(`CreatePayments answered ${outcomes.length} outcomes for one`);
    const payment = valueOrError(outcomes[0]?.payment, outcomes[0]?.error);
    if (payment instanceof Error) throw payment;
    return payment;
  }

  async get(scope: Scope, paymentId: string): Promise<paymentsV1.Payment> {
    const { payment } = await this.client.getPayment({ scope, paymentId });
    if (payment === undefined) throw new Error('GetPayment answered without a payment');
    return payment;
  }

  /** ListPayments with proto3 defaults for what the test leaves out. */
  list(
    request: Partial<paymentsV1.ListPaymentsRequest> & { scope: Scope },
  ): Promise<paymentsV1.ListPaymentsResponse> {
    return this.client.listPayments({ page: undefined, status: 0, ...request });
  }

  /** Publishes what psp-connector publishes when a fund return ends. */
  publishFundReturn(
    update: Partial<pspV1.FundReturnUpdated> & { txId: string; endToEndId: string; amount: bigint },
  ): void {
    const message = FUND_RETURN_UPDATES.codec
      .encode({
        livemode: false,
        status: pspV1.FundReturnStatus.FUND_RETURN_STATUS_SENT,
        occurredAt: new Date(),
        ...update,
      })
      .finish();
    this.publisher.channel.publish(this.exchange, FUND_RETURN_UPDATES.routingKey, Buffer.from(message), {
      messageId: newId('msg'),
      type: FUND_RETURN_UPDATES.messageType,
      persistent: true,
    });
  }

  /**
   * Publishes what psp-connector publishes when a scheme callback arrives: by default a new transfer (an
   * end-to-end id of its own) of the amount create() asks for, received now by the scheme's clock.
   */
  async publishPspUpdate(
    update: Partial<pspV1.PaymentRequestUpdated> & { txId: string },
    messageId: string = newId('msg'),
  ): Promise<string> {
    const message = pspV1.PaymentRequestUpdated.encode({
      livemode: false,
      decision: pspV1.PayerDecision.PAYER_DECISION_PAID,
      endToEndId: `E${randomUUID().replaceAll('-', '')}`,
      // What create() asks for by default: a payment of any other amount is never credited.
      amount: 10_000n,
      payeeMismatch: false,
      occurredAt: this.clock.now(),
      ...update,
    }).finish();
    this.publisher.channel.publish(this.exchange, PAYMENT_REQUEST_UPDATES.routingKey, Buffer.from(message), {
      messageId,
      type: 'sika.psp.v1.PaymentRequestUpdated',
      persistent: true,
    });
    return messageId;
  }

  /** Rows of the service's schema, for assertions on what was (not) written. */
  count(table: 'payments' | 'payment_attempts' | 'idempotency_keys' | 'outbox'): Promise<number> {
    return this.db
      .query<{ count: string }>(`SELECT count(*) FROM ${table}`)
      .then(([row]) => Number(row?.count));
  }

  async close(): Promise<void> {
    this.client.close();
    await this.service.stop();
    await this.publisher.channel.close();
    await this.publisher.connection.close();
    await this.events.close();
    await this.peers.stop();
    await this.rabbit.cleanup();
    await this.db.drop();
  }
}

/** The AppError a call failed with (its code and param survive the gRPC hop). */
export async function appErrorOf(call: Promise<unknown>): Promise<AppError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}
