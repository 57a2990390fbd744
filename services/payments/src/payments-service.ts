import { paymentsV1 } from '@sika/contracts';
import { brokerReadiness, createBroker, notifyingAfterCommit, OutboxRelay } from '@sika/messaging';
import {
  createMetrics,
  databaseReadiness,
  startGrpcServer,
  startMetricsServer,
  systemClock,
} from '@sika/platform';
import type { Clock, Logger, ShutdownStep } from '@sika/platform';
import { ApplyPspUpdate } from './app/apply-psp-update';
import { AttemptSender } from './app/attempt-sender';
import { CancelPayment } from './app/cancel-payment';
import type { UseCaseContext } from './app/context';
import { CreatePayment } from './app/create-payment';
import { ExpirePayments } from './app/expire-payments';
import { GetPayment } from './app/get-payment';
import { ListPayments } from './app/list-payments';
import { ReapIdempotencyKeys } from './app/reap-idempotency-keys';
import { StartAttempt } from './app/start-attempt';
import { SweepPendingAttempts } from './app/sweep-pending-attempts';
import type { Config } from './config';
import { createDatabase } from './infra/database';
import type { Tx } from './infra/database';
import { PaymentRepository } from './infra/payment-repository';
import { GrpcLedger, GrpcMerchantDirectory, GrpcPaymentRequestSender } from './infra/peers';
import { PeriodicTask } from './infra/periodic-task';
import { paymentsGrpcService } from './transport/grpc-service';
import { startPspUpdatesConsumer } from './transport/psp-updates-consumer';

export interface PaymentsServiceOptions {
  config: Config;
  logger: Logger;
  clock?: Clock;
  /** Tests run on their own exchange and queue (and, through the config, their own Postgres schema). */
  exchange?: string;
  pspUpdatesQueue?: string;
  consumerRetryDelayMs?: number;
  consumerMaxAttempts?: number;
}

export interface RunningPaymentsService {
  grpcPort: number;
  metricsPort: number;
  expiry: PeriodicTask;
  sweeper: PeriodicTask;
  reaper: PeriodicTask;
  /** In the order they must run: stop taking work, drain, then close connections. */
  shutdownSteps: readonly ShutdownStep[];
  /** Runs the shutdown steps (tests; main.ts hands them to installShutdown). */
  stop(): Promise<void>;
}

/** How long a new attempt belongs to the in-line send before the sweeper may send it again. */
const DISPATCH_GRACE_MS = 15_000;
/** The outbox relay's pause when idle; commits from this process wake it at once anyway. */
const OUTBOX_IDLE_MS = 250;
const IDEMPOTENCY_REAP_INTERVAL_MS = 10 * 60_000;
const GRPC_SHUTDOWN_GRACE_MS = 10_000;

/**
 * Builds and starts the whole service: database, broker, peers, use cases, outbox relay, PSP updates
 * consumer, schedulers, gRPC server and probes. main.ts calls it with the environment's config; integration
 * tests with a ManualClock, a test schema and their own exchange.
 */
export async function startPaymentsService(options: PaymentsServiceOptions): Promise<RunningPaymentsService> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const metrics = createMetrics({ service: 'payments' });
  const db = createDatabase(config.DATABASE_URL, config.DATABASE_SCHEMA);
  const broker = await createBroker({ url: config.AMQP_URL, logger });
  const merchants = GrpcMerchantDirectory.connect(config.MERCHANTS_GRPC_ADDRESS);
  const ledger = GrpcLedger.connect(config.LEDGER_GRPC_ADDRESS);
  const psp = GrpcPaymentRequestSender.connect(config.PSP_CONNECTOR_GRPC_ADDRESS);

  const relay = new OutboxRelay({
    prisma: db,
    broker,
    idleIntervalMs: OUTBOX_IDLE_MS,
    logger,
    ...(options.exchange === undefined ? {} : { exchange: options.exchange }),
  });
  const context: UseCaseContext = {
    db,
    payments: new PaymentRepository(),
    clock,
    logger,
    eventsCommitted: () => relay.wake(),
  };
  const sender = new AttemptSender({ ...context, psp });
  const useCases = {
    createPayment: new CreatePayment({
      ...context,
      merchants,
      sender,
      checkoutBaseUrl: config.CHECKOUT_BASE_URL,
      dispatchGraceMs: DISPATCH_GRACE_MS,
    }),
    getPayment: new GetPayment(context),
    listPayments: new ListPayments(context),
    cancelPayment: new CancelPayment(context),
    startAttempt: new StartAttempt({ ...context, sender, dispatchGraceMs: DISPATCH_GRACE_MS }),
  };
  const expirePayments = new ExpirePayments(context);
  const sweepPendingAttempts = new SweepPendingAttempts({ ...context, sender });
  const reapIdempotencyKeys = new ReapIdempotencyKeys(context);
  const expiry = new PeriodicTask({
    name: 'expiry',
    intervalMs: config.EXPIRY_POLL_INTERVAL,
    run: () => expirePayments.runOnce(),
    logger,
  });
  const sweeper = new PeriodicTask({
    name: 'attempt-sweeper',
    intervalMs: config.ATTEMPT_SWEEP_INTERVAL,
    run: () => sweepPendingAttempts.runOnce(),
    logger,
  });
  const reaper = new PeriodicTask({
    name: 'idempotency-reaper',
    intervalMs: IDEMPOTENCY_REAP_INTERVAL_MS,
    run: () => reapIdempotencyKeys.runOnce(),
    logger,
  });

  await relay.start();
  const consumer = await startPspUpdatesConsumer({
    broker,
    prisma: notifyingAfterCommit<Tx>(db, () => relay.wake()),
    applyPspUpdate: new ApplyPspUpdate({ ...context, ledger }),
    logger,
    ...(options.exchange === undefined ? {} : { exchange: options.exchange }),
    ...(options.pspUpdatesQueue === undefined ? {} : { queue: options.pspUpdatesQueue }),
    ...(options.consumerRetryDelayMs === undefined ? {} : { retryDelayMs: options.consumerRetryDelayMs }),
    ...(options.consumerMaxAttempts === undefined ? {} : { maxAttempts: options.consumerMaxAttempts }),
  });
  for (const task of [expiry, sweeper, reaper]) task.start();
  const grpc = await startGrpcServer({
    host: config.HOST,
    port: config.GRPC_PORT,
    logger,
    metrics,
    services: [
      { definition: paymentsV1.PaymentsServiceService, implementation: paymentsGrpcService(useCases) },
    ],
  });
  const probes = await startMetricsServer({
    host: config.HOST,
    port: config.METRICS_PORT,
    metrics,
    logger,
    readiness: [databaseReadiness(db), brokerReadiness(broker)],
  });

  const shutdownSteps: ShutdownStep[] = [
    { name: 'grpc server', run: () => grpc.shutdown(GRPC_SHUTDOWN_GRACE_MS) },
    { name: 'psp updates consumer', run: () => consumer.close() },
    {
      name: 'schedulers',
      run: async () => void (await Promise.all([expiry, sweeper, reaper].map((task) => task.stop()))),
    },
    { name: 'background sends', run: () => sender.drain() },
    { name: 'outbox relay', run: () => relay.stop() },
    { name: 'probes', run: () => probes.close() },
    { name: 'broker', run: () => broker.close() },
    {
      name: 'grpc clients',
      run: async () => {
        for (const client of [merchants, ledger, psp]) client.close();
      },
    },
    { name: 'database pool', run: () => db.$disconnect() },
  ];
  return {
    grpcPort: grpc.port,
    metricsPort: probes.port,
    expiry,
    sweeper,
    reaper,
    shutdownSteps,
    async stop() {
      for (const step of shutdownSteps) await step.run();
    },
  };
}
