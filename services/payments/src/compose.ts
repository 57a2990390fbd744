import { paymentsV1 } from '@sika/contracts';
import { brokerReadiness, outboxMessaging } from '@sika/messaging';
import {
  type BasicOverrides,
  batchLoop,
  closing,
  databaseReadiness,
  grpcService,
  grpcTls,
  idempotencyKeyReaper,
  RecentAnswers,
  SecretBox,
  serviceBasics,
  SqlIdempotencyKeyStore,
  systemClock,
} from '@sika/platform';
import { ApplyFundReturn } from './app/apply-fund-return';
import { AuditPayments } from './app/audit-payments';
import { FindSucceededPayments } from './app/find-succeeded-payments';
import { ApplyPspUpdate } from './app/apply-psp-update';
import type { UseCaseContext } from './app/ports';
import { AttemptSender } from './app/attempt-sender';
import { CancelPayment } from './app/cancel-payment';
import { ExpirePaymentNow } from './app/expire-payment-now';
import { CreatePayment } from './app/create-payment';
import { ExpirePayments } from './app/expire-payments';
import { GetPayment } from './app/get-payment';
import { ListPayments } from './app/list-payments';
import { RetainPayerAliases } from './app/retain-payer-aliases';
import { StartAttempt } from './app/start-attempt';
import { SweepPendingAttempts } from './app/sweep-pending-attempts';
import type { Config } from './config';
import { createDatabase, SqlUnitOfWork, type Tx } from './infra/database';
import type { DB } from './generated/database';
import { SqlPaymentStore } from './infra/sql-payment-store';
import { GrpcMerchantDirectory, GrpcPaymentRequestSender } from './infra/peers';
import { PAYMENTS_CALLERS } from './transport/grpc/callers';
import { paymentsGrpcService } from './transport/grpc/service';
import { fundReturnsConsumer, type FundReturnsTopology } from './transport/fund-returns-consumer';
import { pspUpdatesConsumer, type PspUpdatesTopology } from './transport/psp-updates-consumer';

/** What tests replace: the clock they move by hand, a silent logger, their own exchange and queues. */
export interface PaymentsOverrides extends BasicOverrides {
  topology?: PspUpdatesTopology;
  fundReturnsTopology?: FundReturnsTopology;
}

/** How long a new attempt belongs to the in-line send before the sweeper may send it again. */
const DISPATCH_GRACE_MS = 15_000;

/**
 * How long a creation with customer_alias waits for the scheme's synchronous answer (milliseconds when the bank
 * is well): an unknown alias then answers alias_unknown. A slower bank's answer is recorded on the attempt.
 */
const SCHEME_ANSWER_WAIT_MS = 3_000;
/** Retention counts in days: a round every few minutes erases aliases close enough to their due time. */
const PAYER_ALIAS_ROUND_INTERVAL_MS = 5 * 60_000;

/**
 * Config → database, broker, peers → use cases → the PSP updates consumer, the schedulers (expiry, attempt
 * sweeper, idempotency-key reaper, payer-alias retention, messaging retention), the outbox relay and gRPC.
 * Stops in reverse: gRPC and the consumer stop taking work, the schedulers and the background sends finish,
 * the relay publishes what they wrote, then connections close and the probes go last.
 */
export function composePayments(config: Config, overrides: PaymentsOverrides = {}) {
  const { logger, clock, metrics } = serviceBasics('payments', config, overrides);
  const db = createDatabase(config.DATABASE_URL, config.DATABASE_SCHEMA, metrics);
  const { broker, relay, retention, wakingRelay } = outboxMessaging(
    db,
    config,
    { clock, logger, metrics },
    { exchange: overrides.topology?.exchange },
  );
  const tls = grpcTls(config);
  const merchants = GrpcMerchantDirectory.connect(
    config.MERCHANTS_GRPC_ADDRESS,
    tls,
    new RecentAnswers({ ttlMs: config.PROFILE_CACHE_TTL, maxEntries: 100_000, clock: systemClock }),
  );
  const psp = GrpcPaymentRequestSender.connect(config.PSP_CONNECTOR_GRPC_ADDRESS, tls);

  const idempotencyKeys = new SqlIdempotencyKeyStore<DB>('payments', 'payment_id');
  const context: UseCaseContext = {
    db: new SqlUnitOfWork(db),
    payments: new SqlPaymentStore(
      new SecretBox(config.PAYER_ALIAS_KEY, config.PAYER_ALIAS_PREVIOUS_KEYS),
      db,
    ),
    idempotencyKeys,
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
      checkoutTokenKey: config.CHECKOUT_TOKEN_KEY,
      dispatchGraceMs: DISPATCH_GRACE_MS,
      schemeAnswerWaitMs: SCHEME_ANSWER_WAIT_MS,
    }),
    getPayment: new GetPayment(context),
    auditPayments: new AuditPayments(context),
    findSucceededPayments: new FindSucceededPayments(context),
    listPayments: new ListPayments(context),
    cancelPayment: new CancelPayment(context),
    expirePaymentNow: new ExpirePaymentNow(context),
    startAttempt: new StartAttempt({ ...context, sender, dispatchGraceMs: DISPATCH_GRACE_MS }),
  };
  const expirePayments = new ExpirePayments(context);
  const sweepPendingAttempts = new SweepPendingAttempts({ ...context, sender });
  const expiry = batchLoop({
    name: 'expiry',
    intervalMs: config.EXPIRY_POLL_INTERVAL,
    batch: () => expirePayments.execute(),
    clock,
    logger,
  });
  const sweeper = batchLoop({
    name: 'attempt-sweeper',
    intervalMs: config.ATTEMPT_SWEEP_INTERVAL,
    batch: () => sweepPendingAttempts.execute(),
    clock,
    logger,
  });
  const reaper = idempotencyKeyReaper({ keys: idempotencyKeys, client: db, clock, logger });
  const retainPayerAliases = new RetainPayerAliases(context, config.PAYER_ALIAS_RETENTION);
  const payerAliases = batchLoop({
    name: 'payer-aliases',
    intervalMs: PAYER_ALIAS_ROUND_INTERVAL_MS,
    batch: () => retainPayerAliases.execute(),
    clock,
    logger,
  });
  const consumer = pspUpdatesConsumer({
    broker,
    database: wakingRelay<Tx>(db),
    applyPspUpdate: new ApplyPspUpdate(context),
    logger,
    ...(overrides.topology && { topology: overrides.topology }),
    metrics,
  });
  const fundReturns = fundReturnsConsumer({
    broker,
    database: wakingRelay<Tx>(db),
    applyFundReturn: new ApplyFundReturn(context),
    logger,
    ...(overrides.fundReturnsTopology && { topology: overrides.fundReturnsTopology }),
    metrics,
  });

  const service = grpcService(
    {
      config,
      logger,
      metrics,
      readiness: [databaseReadiness(db), brokerReadiness(broker)],
      api: {
        definition: paymentsV1.PaymentsServiceService,
        implementation: paymentsGrpcService(useCases, logger),
        callers: PAYMENTS_CALLERS,
      },
      tls,
    },
    closing('database pool', () => db.destroy()),
    closing('grpc clients', () => {
      for (const client of [merchants, psp]) client.close();
    }),
    broker,
    relay,
    closing('background sends', () => sender.drain()),
    expiry,
    sweeper,
    reaper,
    payerAliases,
    retention,
    consumer,
    fundReturns,
  );
  return Object.assign(service, { expiry, sweeper, reaper, payerAliases });
}

export type Payments = ReturnType<typeof composePayments>;
