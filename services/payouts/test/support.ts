import path from 'node:path';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { Client } from 'pg';
import {
  ledgerV1,
  outboxMessage,
  PAYMENT_EVENTS,
  paymentsV1,
  PAYOUT_EVENTS,
  PAYOUT_TRANSFER_REQUESTS,
  PAYOUT_TRANSFER_UPDATES,
  payoutsV1,
  pspV1,
} from '@sika/contracts';
import {
  createGrpcClient,
  createLogger,
  loadConfig,
  ManualClock,
  newId,
  type GrpcClient,
  type LogLevel,
} from '@sika/platform';
import {
  clientOfAllowedCallers,
  createRabbitScope,
  createTestSchema,
  loggedPort,
  resolveInfra,
  spawnService,
  stopGracefully,
  testIdentity,
  waitFor,
  type RabbitScope,
  type SpawnedProcess,
  type TestSchema,
} from '@sika/testing';
import { deadLetterQueueName, retryQueueName, SERVICE_EVENTS } from '@sika/messaging';
import { composePayouts, type Payouts } from '../src/compose';
import { configSchema } from '../src/config';
import { PAYOUTS_CALLERS } from '../src/transport/grpc/callers';
import { payoutDayAt } from '../src/domain/daily-run';

const SERVICES = path.join(__dirname, '../..');

export interface Scope {
  merchantId: string;
  livemode: boolean;
}

/** Messages go out through the outbox relay, which a machine busy with the whole suite may slow for seconds. */
const RELAYED_WITHIN_MS = 30_000;

/** What psp-connector and webhook-dispatcher would receive from payouts: read off the test exchange. */
export class PayoutsTap {
  readonly transferRequests: payoutsV1.PayoutTransferRequested[] = [];
  readonly events: { messageId: string; event: payoutsV1.PayoutEvent }[] = [];

  transferOf(payoutId: string): Promise<payoutsV1.PayoutTransferRequested> {
    return waitFor(() => this.transferRequests.find((request) => request.payoutId === payoutId), {
      description: `transfer request of ${payoutId}`,
      timeoutMs: RELAYED_WITHIN_MS,
    });
  }

  eventOf(payoutId: string, type: string): Promise<payoutsV1.PayoutEvent> {
    return waitFor(
      () => this.events.find(({ event }) => event.payout?.id === payoutId && event.type === type)?.event,
      { description: `${type} of ${payoutId}`, timeoutMs: RELAYED_WITHIN_MS },
    );
  }
}

interface ReplicaSettings {
  amqpUrl: string;
  databaseUrl: string;
  schema: string;
  ledgerAddress: string;
  exchange: string;
  clock: ManualClock;
  rabbit: RabbitScope;
}

/** One payouts service in-process on the harness's database, queue and clock. */
async function startReplica(settings: ReplicaSettings): Promise<Payouts> {
  const config = loadConfig(configSchema, {
    GRPC_PORT: '0',
    METRICS_PORT: '0',
    DATABASE_URL: settings.databaseUrl,
    DATABASE_SCHEMA: settings.schema,
    AMQP_URL: settings.amqpUrl,
    LEDGER_GRPC_ADDRESS: settings.ledgerAddress,
    PSP_CONNECTOR_GRPC_ADDRESS: '127.0.0.1:9',
    // Rounds run when a test asks for them, not on their own.
    DAILY_PAYOUT_POLL_INTERVAL: '1h',
    RESERVATION_SWEEP_INTERVAL: '1h',
    ...(await testIdentity('payouts')).env,
  });
  const queue = `${settings.exchange}.transfer-updates`;
  for (const name of [queue, `${queue}.retry`, `${queue}.dlq`]) settings.rabbit.track(name);
  const replica = composePayouts(config, {
    clock: settings.clock,
    logger: createLogger({
      service: 'payouts-test',
      level: (process.env.TEST_LOG_LEVEL ?? 'silent') as LogLevel,
    }),
    topology: { exchange: settings.exchange, queue },
  });
  await replica.start();
  return replica;
}

/**
 * The payouts service in-process (ManualClock, its own schema and exchange) with a real ledger process on a
 * schema of its own, over real gRPC; the transfers' outcomes arrive as psp-connector publishes them.
 */
export class Harness {
  private constructor(
    readonly replicas: Payouts[],
    readonly clock: ManualClock,
    readonly client: GrpcClient<payoutsV1.PayoutsServiceClient>,
    readonly ledger: GrpcClient<ledgerV1.LedgerServiceClient>,
    readonly db: TestSchema,
    readonly tap: PayoutsTap,
    private readonly ledgerDb: TestSchema,
    private readonly ledgerProcess: SpawnedProcess,
    private readonly amqp: { connection: ChannelModel; channel: Channel },
    private readonly settings: ReplicaSettings,
  ) {}

  static async start(name: string, now = new Date('2026-11-25T09:00:00.000Z')): Promise<Harness> {
    const infra = await resolveInfra();
    const ledgerDb = await createTestSchema({
      prefix: `payouts_${name}_ledger`,
      migrationsDir: path.join(SERVICES, 'ledger/prisma/migrations'),
    });
    const db = await createTestSchema({
      prefix: `payouts_${name}`,
      migrationsDir: path.join(SERVICES, 'payouts/prisma/migrations'),
    });
    const rabbit = await createRabbitScope({ amqpUrl: infra.amqpUrl });
    const exchange = rabbit.name('payouts-test');
    // The ledger applies payouts' decisions (payout.paid, payout.failed) from this exchange, as in a stack.
    const ledgerQueuePrefix = `${rabbit.name('ledger')}.`;
    for (const { queue } of SERVICE_EVENTS.ledger.consumes) {
      for (const each of [queue, retryQueueName(queue), deadLetterQueueName(queue)]) {
        rabbit.track(`${ledgerQueuePrefix}${each}`);
      }
    }
    const ledgerProcess = await spawnService('ledger', {
      env: {
        DATABASE_URL: ledgerDb.databaseUrl,
        DATABASE_SCHEMA: ledgerDb.schema,
        AMQP_URL: infra.amqpUrl,
        EVENTS_EXCHANGE: exchange,
        DECISION_QUEUE_PREFIX: ledgerQueuePrefix,
        PAYMENTS_GRPC_ADDRESS: '127.0.0.1:1',
        PAYOUTS_GRPC_ADDRESS: '127.0.0.1:1',
        BOOKS_WATCH_INTERVAL: '1h',
      },
      readyMessage: 'grpc server listening',
    });
    try {
      const ledgerAddress = `127.0.0.1:${await loggedPort(ledgerProcess, 'grpc server listening')}`;
      const connection = await connect(infra.amqpUrl);
      const channel = await connection.createChannel();
      await channel.assertExchange(exchange, 'topic', { durable: true });
      const tapQueue = rabbit.name('payouts-tap');
      await channel.assertQueue(tapQueue, { durable: false });
      await channel.bindQueue(tapQueue, exchange, 'payouts.#');
      const tap = new PayoutsTap();
      await channel.consume(
        tapQueue,
        (message) => {
          if (message === null) return;
          if (message.fields.routingKey === PAYOUT_TRANSFER_REQUESTS.routingKey) {
            tap.transferRequests.push(PAYOUT_TRANSFER_REQUESTS.codec.decode(message.content));
          } else {
            const event = PAYOUT_EVENTS.codec.decode(message.content);
            tap.events.push({ messageId: String(message.properties.messageId), event });
          }
        },
        { noAck: true },
      );
      // The ledger methods the tests call, each as a caller the ledger allows: reads as the gateway.
      const ledger = await clientOfAllowedCallers(
        { getBalance: ['gateway'], listBalanceTransactions: ['gateway'] },
        (tls) => createGrpcClient(ledgerV1.LedgerServiceClient, ledgerAddress, { deadlineMs: 10_000, tls }),
      );
      const settings: ReplicaSettings = {
        amqpUrl: infra.amqpUrl,
        databaseUrl: infra.databaseUrl,
        schema: db.schema,
        ledgerAddress,
        exchange,
        clock: new ManualClock(now),
        rabbit,
      };
      const first = await startReplica(settings);
      // Each method called as a caller payouts allows (createPayout as gateway, setPayoutAccount as dashboard-web …).
      const client = await clientOfAllowedCallers(PAYOUTS_CALLERS, (tls) =>
        createGrpcClient(payoutsV1.PayoutsServiceClient, `127.0.0.1:${first.grpc.port}`, {
          deadlineMs: 10_000,
          tls,
        }),
      );
      const harness = new Harness(
        [first],
        settings.clock,
        client,
        ledger,
        db,
        tap,
        ledgerDb,
        ledgerProcess,
        {
          connection,
          channel,
        },
        settings,
      );
      // The first round runs at start, over merchants that have nothing yet: done before any test funds one.
      await harness.waitForRun(payoutDayAt(now));
      return harness;
    } catch (error) {
      // A harness that never started is never closed: its ledger process must not outlive the file.
      await ledgerProcess.stop();
      throw error;
    }
  }

  /** Another payouts service on the same database, queue and clock: a replica. */
  async startReplica(): Promise<Payouts> {
    const replica = await startReplica(this.settings);
    this.replicas.push(replica);
    return replica;
  }

  newScope(livemode = false): Scope {
    return { merchantId: newId('mer'), livemode };
  }

  /**
   * Credits a payment of `amount` (no fee) to the merchant's available balance, as payments' decision does (its
   * `payment.succeeded` event), and waits until the ledger applied it.
   */
  async fund(scope: Scope, amount: bigint): Promise<void> {
    const before = (await this.balance(scope)).available;
    const event = {
      type: 'payment.succeeded',
      payment: paymentsV1.Payment.fromPartial({ ...scope, id: newId('pay'), amount, feeAmount: 0n }),
      occurredAt: this.clock.now(),
    };
    const { payload, type } = outboxMessage(PAYMENT_EVENTS, event, PAYMENT_EVENTS.routingKey(event.type));
    this.amqp.channel.publish(
      this.settings.exchange,
      PAYMENT_EVENTS.routingKey(event.type),
      Buffer.from(payload),
      {
        messageId: newId('msg'),
        type,
        persistent: true,
      },
    );
    await waitFor(async () => (await this.balance(scope)).available === before + amount, {
      description: `${amount} credited to ${scope.merchantId}`,
    });
  }

  async balance(scope: Scope): Promise<ledgerV1.Balance> {
    const { balance } = await this.ledger.getBalance({ scope });
    if (!balance) throw new Error('GetBalance answered without a balance');
    return balance;
  }

  async createPayout(scope: Scope, options: { key?: string; amount?: bigint; fingerprint?: string } = {}) {
    const { payout } = await this.client.createPayout({
      scope,
      idempotencyKey: options.key ?? newId('req'),
      requestFingerprint: options.fingerprint ?? `amount=${options.amount ?? 'all'}`,
      ...(options.amount !== undefined && { amount: options.amount }),
    });
    if (!payout) throw new Error('CreatePayout answered without a payout');
    return payout;
  }

  async getPayout(scope: Scope, payoutId: string): Promise<payoutsV1.Payout> {
    const { payout } = await this.client.getPayout({ scope, payoutId });
    if (!payout) throw new Error('GetPayout answered without a payout');
    return payout;
  }

  /** ListPayouts with proto3 defaults for what the test leaves out. */
  list(
    request: Partial<payoutsV1.ListPayoutsRequest> & { scope: Scope },
  ): Promise<payoutsV1.ListPayoutsResponse> {
    return this.client.listPayouts({ page: { limit: 0 }, status: 0, ...request });
  }

  /** Until the daily run of `day` is complete in both modes. */
  async waitForRun(day: string): Promise<void> {
    await waitFor(
      async () => {
        const rows = await this.db.query('SELECT 1 FROM daily_payout_runs WHERE day = $1', [day]);
        return rows.length === 2;
      },
      { description: `the daily run of ${day}` },
    );
  }

  /** The merchant's payouts once there are `count`. */
  /**
   * Holds `LOCK TABLE ledger_transactions IN EXCLUSIVE MODE` in the ledger's schema for `ms`, as a long
   * transaction would: the ledger's writes wait, past payouts' deadline, and commit once it is released.
   * Resolves once the lock is held; `released` once it is let go.
   */
  async lockLedger(ms: number): Promise<{ released: Promise<void> }> {
    const locker = new Client({ connectionString: this.ledgerDb.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE ledger_transactions IN EXCLUSIVE MODE');
    const released = (async () => {
      try {
        await new Promise((resolve) => setTimeout(resolve, ms));
        await locker.query('COMMIT');
      } finally {
        await locker.end();
      }
    })();
    return { released };
  }

  waitForPayouts(scope: Scope, count: number): Promise<payoutsV1.Payout[]> {
    return waitFor(
      async () => {
        const { payouts } = await this.list({ scope });
        return payouts.length === count ? payouts : undefined;
      },
      { description: `${count} payouts of ${scope.merchantId}` },
    );
  }

  /** What psp-connector publishes when a payout's transfer ends. */
  publishTransferOutcome(
    payout: { id: string; livemode: boolean },
    outcome: { paid: true } | { paid: false; reasonCode: string },
  ): void {
    const update: pspV1.PayoutTransferUpdated = {
      livemode: payout.livemode,
      payoutId: payout.id,
      status: outcome.paid
        ? pspV1.PayoutTransferStatus.PAYOUT_TRANSFER_STATUS_PAID
        : pspV1.PayoutTransferStatus.PAYOUT_TRANSFER_STATUS_FAILED,
      ...(!outcome.paid && { reasonCode: outcome.reasonCode }),
      occurredAt: this.clock.now(),
    };
    this.amqp.channel.publish(
      this.settings.exchange,
      PAYOUT_TRANSFER_UPDATES.routingKey,
      Buffer.from(PAYOUT_TRANSFER_UPDATES.codec.encode(update).finish()),
      { messageId: newId('msg'), type: PAYOUT_TRANSFER_UPDATES.messageType, persistent: true },
    );
  }

  async close(): Promise<void> {
    this.client.close();
    this.ledger.close();
    for (const replica of this.replicas) await replica.stop();
    await this.amqp.channel.close();
    await this.amqp.connection.close();
    await stopGracefully(this.ledgerProcess);
    await this.settings.rabbit.cleanup();
    await this.db.drop();
    await this.ledgerDb.drop();
  }
}
