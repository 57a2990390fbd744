import path from 'node:path';
import { connect, type ConfirmChannel, type ChannelModel } from 'amqplib';
import {
  FUND_RETURN_UPDATES,
  ledgerV1,
  outboxMessage,
  PAYMENT_EVENTS,
  PAYOUT_EVENTS,
  paymentsV1,
  payoutsV1,
  pspV1,
  REFUND_REQUESTS,
  type EventStream,
} from '@sika/contracts';
import {
  createGrpcClient,
  createLogger,
  loadConfig,
  ManualClock,
  newId,
  type GrpcClient,
} from '@sika/platform';
import {
  clientOfAllowedCallers,
  createRabbitScope,
  createTestSchema,
  resolveInfra,
  testIdentity,
  waitFor,
  type RabbitScope,
  type TestSchema,
} from '@sika/testing';
import { deadLetterQueueName, retryQueueName } from '@sika/messaging';
import { CONSUMER_QUEUES } from '@sika/contracts';
import { composeLedger } from '../src/compose';
import { configSchema } from '../src/config';
import { LEDGER_CALLERS } from '../src/transport/grpc/callers';

export interface Scope {
  merchantId: string;
  livemode: boolean;
}

/** Silent unless TEST_LOG_LEVEL names a level. */
const LOG_LEVEL = process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'silent';

/**
 * The ledger on a fresh schema with the committed migrations, served over real gRPC on a free port, consuming
 * the decisions of others from an exchange and queues of its own on the real broker. The tests publish those
 * decisions as their deciders do (payments' `payment.succeeded` and `payments.refund.requested`,
 * psp-connector's `psp.fund_return.updated`, payouts' `payout.paid` and `payout.failed`).
 */
export class LedgerHarness {
  private constructor(
    readonly db: TestSchema,
    readonly clock: ManualClock,
    readonly client: GrpcClient<ledgerV1.LedgerServiceClient>,
    private readonly rabbit: RabbitScope,
    private readonly exchange: string,
    private readonly queuePrefix: string,
    private readonly publisher: { connection: ChannelModel; channel: ConfirmChannel },
    private readonly stopLedger: () => Promise<void>,
    /** Where the ledger serves /metrics. */
    readonly metricsUrl: string,
    /** host:port of its gRPC server, for a client of its own (the CLI's). */
    readonly address: string,
  ) {}

  /** `env` adds to the ledger's environment or replaces parts of it (the books watch's peers, say). */
  static async start(env: Readonly<Record<string, string>> = {}): Promise<LedgerHarness> {
    const infra = await resolveInfra();
    const db = await createTestSchema({
      prefix: 'ledger',
      migrationsDir: path.join(__dirname, '../prisma/migrations'),
    });
    const rabbit = await createRabbitScope({ amqpUrl: infra.amqpUrl });
    const exchange = rabbit.name('ledger-test');
    const queuePrefix = `${rabbit.name('t')}.`;
    for (const { queue } of Object.values(CONSUMER_QUEUES).filter((each) =>
      each.queue.startsWith('ledger.'),
    )) {
      for (const name of [queue, retryQueueName(queue), deadLetterQueueName(queue)]) {
        rabbit.track(`${queuePrefix}${name}`);
      }
    }
    const clock = new ManualClock(new Date('2026-03-01T09:00:00.000Z'));
    const config = loadConfig(configSchema, {
      DATABASE_URL: db.databaseUrl,
      DATABASE_SCHEMA: db.schema,
      AMQP_URL: infra.amqpUrl,
      EVENTS_EXCHANGE: exchange,
      DECISION_QUEUE_PREFIX: queuePrefix,
      // The books watch has its own test (watch.test.ts): here nobody answers it, and it rarely asks.
      PAYMENTS_GRPC_ADDRESS: '127.0.0.1:1',
      PAYOUTS_GRPC_ADDRESS: '127.0.0.1:1',
      BOOKS_WATCH_INTERVAL: '1h',
      GRPC_PORT: '0',
      METRICS_PORT: '0',
      ...(await testIdentity('ledger')).env,
      ...env,
    });
    const ledger = composeLedger(config, {
      clock,
      logger: createLogger({ service: 'ledger-test', level: LOG_LEVEL }),
      retries: { maxAttempts: 2, retryDelayMs: 100 },
    });
    await ledger.start();
    // Each method called as a caller the ledger allows (reservePayout as payouts, auditBooks as cli …).
    const client = await clientOfAllowedCallers(LEDGER_CALLERS, (tls) =>
      createGrpcClient(ledgerV1.LedgerServiceClient, `127.0.0.1:${ledger.grpc.port}`, {
        deadlineMs: 10_000,
        tls,
      }),
    );
    const connection = await connect(infra.amqpUrl);
    const channel = await connection.createConfirmChannel();
    return new LedgerHarness(
      db,
      clock,
      client,
      rabbit,
      exchange,
      queuePrefix,
      { connection, channel },
      () => ledger.stop(),
      `http://127.0.0.1:${ledger.probes.port}/metrics`,
      `127.0.0.1:${ledger.grpc.port}`,
    );
  }

  /** Publishes a decision as its decider's relay does; resolves once the broker has it. Its message id. */
  async publish<T>(stream: EventStream<T>, message: T, routingKey: string, messageId = newId('msg')) {
    const { payload, type } = outboxMessage(stream, message, routingKey);
    this.publisher.channel.publish(this.exchange, routingKey, Buffer.from(payload), {
      messageId,
      type,
      persistent: true,
    });
    await this.publisher.channel.waitForConfirms();
    return messageId;
  }

  /** payments' decision that a payment succeeded: its `payment.succeeded` event. */
  publishSucceeded(
    scope: Scope,
    payment: { id: string; amount: bigint; feeAmount: bigint },
    messageId?: string,
  ): Promise<string> {
    const event: paymentsV1.PaymentEvent = {
      type: 'payment.succeeded',
      payment: paymentsV1.Payment.fromPartial({
        ...scope,
        id: payment.id,
        status: paymentsV1.PaymentStatus.PAYMENT_STATUS_SUCCEEDED,
        amount: payment.amount,
        currency: 'XOF',
        feeAmount: payment.feeAmount,
        netAmount: payment.amount - payment.feeAmount,
      }),
      occurredAt: this.clock.now(),
    };
    return this.publish(PAYMENT_EVENTS, event, PAYMENT_EVENTS.routingKey('payment.succeeded'), messageId);
  }

  /** Credits a payment as payments' decision does, and waits until the ledger has applied it. */
  async credit(
    scope: Scope,
    amount: bigint,
    feeAmount: bigint,
    paymentId = newId('pay'),
  ): Promise<ledgerV1.BalanceTransaction[]> {
    await this.publishSucceeded(scope, { id: paymentId, amount, feeAmount });
    return this.movementsOf(scope, paymentId, 2);
  }

  /** The source's movements in the scope, once there are `count` of them. */
  movementsOf(scope: Scope, sourceId: string, count: number): Promise<ledgerV1.BalanceTransaction[]> {
    return waitFor(
      async () => {
        const { balanceTransactions } = await this.client.listBalanceTransactions({
          scope,
          page: { limit: 100 },
          type: 0,
        });
        const movements = balanceTransactions.filter((movement) => movement.sourceId === sourceId).reverse();
        return movements.length === count && movements;
      },
      { description: `${count} movements of ${sourceId}` },
    );
  }

  /** payments' decision that a transfer goes back: owed, booked to refunds_payable. */
  publishRefundOwed(livemode: boolean, transferId: string, amount: bigint): Promise<string> {
    const request: paymentsV1.RefundRequested = {
      livemode,
      txId: 'SIKAtest',
      endToEndId: transferId,
      amount,
    };
    return this.publish(REFUND_REQUESTS, request, REFUND_REQUESTS.routingKey);
  }

  /** psp-connector's verdict that a return went (sent) or was given up (abandoned). */
  publishReturn(livemode: boolean, transferId: string, amount: bigint, sent = true): Promise<string> {
    const update: pspV1.FundReturnUpdated = {
      livemode,
      txId: 'SIKAtest',
      endToEndId: transferId,
      amount,
      status: sent
        ? pspV1.FundReturnStatus.FUND_RETURN_STATUS_SENT
        : pspV1.FundReturnStatus.FUND_RETURN_STATUS_ABANDONED,
      occurredAt: this.clock.now(),
    };
    return this.publish(FUND_RETURN_UPDATES, update, FUND_RETURN_UPDATES.routingKey);
  }

  /** payouts' decision that a payout is paid or failed: its `payout.paid` or `payout.failed` event. */
  publishPayoutOutcome(
    scope: Scope,
    payout: { id: string; amount: bigint },
    outcome: 'paid' | 'failed',
  ): Promise<string> {
    const event: payoutsV1.PayoutEvent = {
      type: `payout.${outcome}`,
      payout: payoutsV1.Payout.fromPartial({
        ...scope,
        id: payout.id,
        amount: payout.amount,
        currency: 'XOF',
        status:
          outcome === 'paid'
            ? payoutsV1.PayoutStatus.PAYOUT_STATUS_PAID
            : payoutsV1.PayoutStatus.PAYOUT_STATUS_FAILED,
      }),
      occurredAt: this.clock.now(),
    };
    return this.publish(PAYOUT_EVENTS, event, PAYOUT_EVENTS.routingKey(`payout.${outcome}`));
  }

  /** What refunds_payable holds in the mode. */
  async refundsPayable(livemode: boolean): Promise<bigint> {
    return (await this.client.getRefundsPayable({ livemode })).amount;
  }

  /** Messages in the dead-letter queue of one of the ledger's queues (its contract name). */
  async deadLetters(queue: string): Promise<number> {
    const channel = await this.publisher.connection.createChannel();
    try {
      return (await channel.checkQueue(deadLetterQueueName(`${this.queuePrefix}${queue}`))).messageCount;
    } finally {
      await channel.close();
    }
  }

  async close(): Promise<void> {
    this.client.close();
    await this.stopLedger();
    await this.publisher.channel.close();
    await this.publisher.connection.close();
    await this.rabbit.cleanup();
    await this.db.drop();
  }
}

export const startLedger = (env?: Readonly<Record<string, string>>): Promise<LedgerHarness> =>
  LedgerHarness.start(env);

/** The single row a query must return. */
export async function queryOne<Row extends Record<string, unknown>>(
  db: TestSchema,
  sql: string,
  params?: unknown[],
): Promise<Row> {
  const rows = await db.query<Row>(sql, params);
  if (rows.length !== 1 || rows[0] === undefined) throw new Error(`expected one row, got ${rows.length}`);
  return rows[0];
}

export const testScope = (livemode = false): Scope => ({ merchantId: newId('mer'), livemode });
