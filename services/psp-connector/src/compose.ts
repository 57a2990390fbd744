import { pspV1 } from '@sika/contracts';
import { brokerReadiness, notifyingAfterCommit, outboxMessaging } from '@sika/messaging';
import {
  type BasicOverrides,
  batchLoop,
  closing,
  createHttpApp,
  databaseReadiness,
  finishHttpApp,
  GrpcServer,
  grpcTls,
  HttpServer,
  probesOn,
  PollingLoop,
  RecentAnswers,
  SecretBox,
  Service,
  serviceBasics,
  Database,
  systemClock,
} from '@sika/platform';
import { ApplyFundReturnVerdict } from './app/apply-fund-return-verdict';
import { ApplyPayerDecision } from './app/apply-payer-decision';
import { ApplyPayoutTransferVerdict } from './app/apply-payout-transfer-verdict';
import { HandlePispiCallback } from './app/handle-pispi-callback';
import { LookupPayee } from './app/lookup-payee';
import { RequestFundReturn } from './app/request-fund-return';
import { RequestPayoutTransfer } from './app/request-payout-transfer';
import { SendPayoutTransfers } from './app/send-payout-transfers';
import { SendFundReturns } from './app/send-fund-returns';
import type { ParticipantDirectory, PispiWebhookRow } from './app/ports';
import { RegisterPispiWebhook } from './app/register-pispi-webhook';
import { ResealCallbackSecrets } from './app/reseal-callback-secrets';
import { RetainCallbackEvents } from './app/retain-callback-events';
import { SendPaymentRequest } from './app/send-payment-request';
import { WatchInvoices } from './app/watch-invoices';
import { VerifyCallbackSignature } from './app/verify-callback-signature';
import type { Config } from './config';
import { MODES } from './domain/mode';
import type { DB } from './generated/database';
import { SqlCallbackStore } from './infra/sql-callback-store';
import { SqlFundReturnStore } from './infra/sql-fund-return-store';
import { SqlPaymentRequestStore } from './infra/sql-payment-request-store';
import { SqlPayoutTransferStore } from './infra/sql-payout-transfer-store';
import { SqlPispiWebhookStore } from './infra/sql-pispi-webhook-store';
import { participantDirectory } from './infra/participant-directory';
import { pispiMetrics } from './infra/pispi-metrics';
import { PSP_CONNECTOR_CALLERS } from './transport/grpc/callers';
import { pspConnectorService } from './transport/grpc/service';
import { callbackRoutes, CALLBACKS_PATH_PREFIX } from './transport/http/callback-routes';
import { captureRawBody } from './transport/http/raw-body';
import { payoutTransferRequestsConsumer } from './transport/payout-transfer-requests-consumer';
import { refundRequestsConsumer } from './transport/refund-requests-consumer';
import { RegistrationLoop } from './transport/registration-loop';

/** What tests replace: the clock, a silent logger, the participants' clients. */
export interface PspConnectorOverrides extends BasicOverrides {
  schemes?: ParticipantDirectory;
}

/** Connections per process: pg's default, the size of the Prisma pool this replaced. */
const DATABASE_POOL_SIZE = 10;

/** Callbacks list events; a megabyte leaves room for many without inviting abuse. */
const CALLBACK_BODY_LIMIT_BYTES = 1024 * 1024;
/** Retention counts in days: a look every few minutes deletes events close enough to their due time. */
const CALLBACK_EVENTS_ROUND_INTERVAL_MS = 5 * 60_000;

/**
 * Config → database, broker, participants' clients (over mutual TLS where configured) → use cases → the
 * callback HTTP server (with the probes), gRPC, the outbox relay, the refund-request and payout-transfer
 * consumers, and the loops: callback registration, invoice acceptances, fund returns, payout transfers,
 * messaging and callback-event retention. At start, stored callback secrets are sealed with the current key first. Stops in
 * reverse: gRPC, then callbacks, then the loops and the consumer, the broker and the pool.
 */
export function composePspConnector(config: Config, overrides: PspConnectorOverrides = {}) {
  const { logger, clock, metrics } = serviceBasics('psp-connector', config, overrides);
  const db = new Database<DB>({
    url: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
    maxConnections: DATABASE_POOL_SIZE,
    metrics,
  });
  const { broker, relay, retention } = outboxMessaging(
    db,
    config,
    { clock, logger, metrics },
    { exchange: config.EVENTS_EXCHANGE },
  );
  const schemes = overrides.schemes ?? participantDirectory(config, pispiMetrics(metrics));
  const webhooks = new SqlPispiWebhookStore(
    db,
    new SecretBox(config.CALLBACK_SECRET_KEY, config.CALLBACK_SECRET_PREVIOUS_KEYS),
  );
  const resealCallbackSecrets = new ResealCallbackSecrets({ webhooks, logger });

  const requests = new SqlPaymentRequestStore(db);
  const store = new SqlCallbackStore(db);
  const sendPaymentRequest = new SendPaymentRequest({
    requests,
    schemes,
    clock,
    logger,
    paymentDeadlineMs: config.PISPI_PAYMENT_DEADLINE,
  });
  const fundReturnStore = new SqlFundReturnStore(db);
  const sendFundReturns = new SendFundReturns({
    store: fundReturnStore,
    schemes,
    clock,
    logger,
    onPublished: () => relay.wake(),
    batchSize: 20,
  });
  const fundReturns = new PollingLoop({
    name: 'fund returns',
    round: () => sendFundReturns.execute(),
    intervalMs: config.PISPI_FUND_RETURN_POLL_INTERVAL,
    clock,
    logger,
  });
  const refundRequests = refundRequestsConsumer({
    broker,
    // Woken once the return is committed: a round started inside the consumer's transaction would not see it.
    db: notifyingAfterCommit(db, () => fundReturns.wake()),
    requestFundReturn: new RequestFundReturn({ store: fundReturnStore, clock, logger }),
    logger,
    exchange: config.EVENTS_EXCHANGE,
    queue: config.REFUND_REQUESTS_QUEUE,
    metrics,
  });
  const payoutTransferStore = new SqlPayoutTransferStore(db);
  const sendPayoutTransfers = new SendPayoutTransfers({
    store: payoutTransferStore,
    schemes,
    clock,
    logger,
    onPublished: () => relay.wake(),
    batchSize: 20,
    verdictWaitMs: config.PISPI_PAYOUT_VERDICT_WAIT,
  });
  const payoutTransfers = new PollingLoop({
    name: 'payout transfers',
    round: () => sendPayoutTransfers.execute(),
    intervalMs: config.PISPI_PAYOUT_POLL_INTERVAL,
    clock,
    logger,
  });
  const payoutTransferRequests = payoutTransferRequestsConsumer({
    broker,
    db: notifyingAfterCommit(db, () => payoutTransfers.wake()),
    requestPayoutTransfer: new RequestPayoutTransfer({ store: payoutTransferStore, clock, logger }),
    logger,
    exchange: config.EVENTS_EXCHANGE,
    queue: config.PAYOUT_TRANSFERS_QUEUE,
    metrics,
  });
  // Every callback is checked against its mode's registration: read once a second, not once a callback.
  const recentRegistrations = new RecentAnswers<PispiWebhookRow | null>({
    ttlMs: config.CALLBACK_REGISTRATION_CACHE_TTL,
    maxEntries: MODES.length,
    clock: systemClock,
  });
  const handlePispiCallback = new HandlePispiCallback({
    verifySignature: new VerifyCallbackSignature({
      webhooks: { find: (mode) => recentRegistrations.get(mode, () => webhooks.find(mode)) },
    }),
    flows: {
      payerDecision: new ApplyPayerDecision(),
      fundReturnVerdict: new ApplyFundReturnVerdict({
        logger,
        onFundReturnDue: (at) => fundReturns.wakeAt(at),
      }),
      payoutTransferVerdict: new ApplyPayoutTransferVerdict(),
    },
    store,
    clock,
    logger,
    onPublished: () => relay.wake(),
    payeeAliases: { test: schemes.test?.payeeAlias, live: schemes.live?.payeeAlias },
  });
  const watchInvoices = new WatchInvoices({
    requests,
    schemes,
    store,
    clock,
    logger,
    onPublished: () => relay.wake(),
    batchSize: 50,
  });
  const invoices = new PollingLoop({
    name: 'invoice acceptances',
    // Once per interval whatever it found: an undecided invoice is read again only after a pause.
    round: async () => {
      await watchInvoices.execute();
      return false;
    },
    intervalMs: config.PISPI_INVOICE_POLL_INTERVAL,
    clock,
    logger,
  });
  const registration = new RegistrationLoop(
    new RegisterPispiWebhook({ webhooks, publicBaseUrl: config.PSP_CALLBACK_PUBLIC_URL, clock, logger }),
    schemes,
    logger,
  );

  const probes = probesOn({
    config,
    logger,
    metrics,
    readiness: [
      databaseReadiness(db),
      brokerReadiness(broker),
      {
        name: 'scheme callbacks',
        check: async () => {
          for (const mode of MODES) {
            if (schemes[mode] && !(await webhooks.find(mode)))
              throw new Error(`${mode} callback URL not registered`);
          }
        },
      },
    ],
  });
  const app = createHttpApp({ logger, metrics });
  app.use(callbackRoutes({ handlePispiCallback }, CALLBACK_BODY_LIMIT_BYTES));
  finishHttpApp(app);
  const http = new HttpServer(
    captureRawBody(app, { pathPrefix: CALLBACKS_PATH_PREFIX, limitBytes: CALLBACK_BODY_LIMIT_BYTES }),
    { host: config.HOST, port: config.HTTP_PORT, name: 'psp-connector', logger },
  );
  const grpc = new GrpcServer({
    host: config.HOST,
    port: config.GRPC_PORT,
    logger,
    metrics,
    services: [
      {
        definition: pspV1.PspConnectorServiceService,
        implementation: pspConnectorService({
          sendPaymentRequest,
          lookupPayee: new LookupPayee({ schemes, logger }),
        }),
        callers: PSP_CONNECTOR_CALLERS,
      },
    ],
    tls: grpcTls(config),
  });
  const retainCallbackEvents = new RetainCallbackEvents({
    store,
    clock,
    logger,
    retentionMs: config.SCHEME_CALLBACK_RETENTION,
  });
  const callbackEventRetention = batchLoop({
    name: 'callback events retention',
    intervalMs: CALLBACK_EVENTS_ROUND_INTERVAL_MS,
    batch: () => retainCallbackEvents.execute(),
    clock,
    logger,
  });

  const service = new Service(logger).add(
    probes,
    closing('database pool', () => db.destroy()),
    broker,
    relay,
    retention,
    callbackEventRetention,
    // Before anything reads a secret: what an older version stored in clear, or a previous key sealed, is sealed
    // with the current key.
    { name: 'callback secret sealing', start: async () => void (await resealCallbackSecrets.execute()) },
    invoices,
    fundReturns,
    payoutTransfers,
    refundRequests,
    payoutTransferRequests,
    registration,
    http,
    grpc,
  );
  return Object.assign(service, { grpc, http, probes });
}

export type PspConnector = ReturnType<typeof composePspConnector>;
