import {
  type BasicOverrides,
  closing,
  createHttpApp,
  Database,
  databaseReadiness,
  finishHttpApp,
  HttpServer,
  probesOn,
  PollingLoop,
  Service,
  serviceBasics,
} from '@sika/platform';
import { AnswerVirements } from './app/answer-virements';
import { ApplyPayerActions } from './app/apply-payer-actions';
import { ConfirmVirement } from './app/confirm-virement';
import { CreateVirement } from './app/create-virement';
import { GetVirement } from './app/get-virement';
import { Authorize } from './app/authorize';
import { CreateDemande } from './app/create-demande';
import { DeleteWebhook } from './app/delete-webhook';
import { DeliverCallbacks } from './app/deliver-callbacks';
import { GetDemande } from './app/get-demande';
import { GetWebhook } from './app/get-webhook';
import { IssueToken } from './app/issue-token';
import { PayDemande } from './app/pay-demande';
import { ReturnFunds } from './app/return-funds';
import { RegisterWebhook } from './app/register-webhook';
import { WhenDue, WorkerRound } from './app/worker-round';
import type { Config } from './config';
import type { DB } from './generated/database';
import { HttpCallbackSender } from './infra/callback-sender';
import { SqlDemandeRepository } from './infra/sql-demande-repository';
import { SqlNotificationRepository } from './infra/sql-notification-repository';
import { SqlPayerActionRepository } from './infra/sql-payer-action-repository';
import { SqlVirementRepository } from './infra/sql-virement-repository';
import { SqlWebhookRepository } from './infra/sql-webhook-repository';
import { problemErrorHandler, problemNotFound } from './transport/http/problem-middleware';
import { simulatorRoutes } from './transport/http/routes';

/** What tests replace: the clock, a silent logger. */
export type SimulatorOverrides = BasicOverrides;

/** A lease comfortably longer than one callback POST, so two processes never send the same one at once. */
const leaseFor = (callbackTimeoutMs: number): number => callbackTimeoutMs * 3;

/**
 * Config → database → use cases → the API Business over HTTP (with the probes), and the one background loop:
 * payers and payees' banks whose answer is due answer, then callbacks go out. A new demande or transfer wakes it
 * when its answer falls due, a queued callback or retry when it is due; the transfers and callbacks steps look
 * only then, and once a sweep interval, so work written before a restart is picked up after it.
 */
export function composeSimulator(config: Config, overrides: SimulatorOverrides = {}) {
  const { logger, clock, metrics } = serviceBasics('pispi-simulator', config, overrides);
  // Every query is Kysely's on pg (no Prisma client at run time): Prisma keeps the schema and migrations.
  // The simulator is the test-mode bank: its rows are test data, not money, so its commits need not wait for
  // the disk. A crash of Postgres may lose its last fraction of a second of work, as a bank's lost answer would.
  const db = new Database<DB>({
    url: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
    asynchronousCommit: true,
  });
  const webhooks = new SqlWebhookRepository(db);
  const demandes = new SqlDemandeRepository(db);
  const client = {
    clientId: config.SIMULATOR_CLIENT_ID,
    clientSecret: config.SIMULATOR_CLIENT_SECRET,
    tokenTtlMs: config.SIMULATOR_TOKEN_TTL,
  };

  const payerActions = new SqlPayerActionRepository(db);
  const callbackSender = new HttpCallbackSender(config.SIMULATOR_CALLBACK_TIMEOUT);
  const leaseMs = leaseFor(config.SIMULATOR_CALLBACK_TIMEOUT);
  const deliverCallbacks = new DeliverCallbacks(
    new SqlNotificationRepository(db),
    callbackSender,
    clock,
    logger,
    {
      batchSize: 20,
      leaseMs,
      onRetryScheduled: (dueAt) => callbacksDue(dueAt),
    },
  );
  // A step told of work due wakes the loop then; the loop runs every step, which looks if its work is due.
  const dueFor = (step: WhenDue) => (dueAt: Date) => {
    step.schedule(dueAt);
    payers.wakeAt(dueAt);
  };
  const callbacks = new WhenDue(deliverCallbacks, clock, config.SIMULATOR_SWEEP_INTERVAL);
  const callbacksDue = dueFor(callbacks);
  const applyPayerActions = new ApplyPayerActions(payerActions, clock, logger, {
    leaseMs,
    deliver: (leased) => deliverCallbacks.deliverLeased(leased),
  });
  const virements = new SqlVirementRepository(db);
  const answerVirements = new WhenDue(
    new AnswerVirements(virements, clock, logger, (dueAt) => callbacks.schedule(dueAt)),
    clock,
    config.SIMULATOR_SWEEP_INTERVAL,
  );
  const round = new WorkerRound([applyPayerActions, answerVirements, callbacks]);
  const payers = new PollingLoop({
    name: 'payers, payees and callbacks',
    round: () => round.execute(),
    intervalMs: config.SIMULATOR_POLL_INTERVAL,
    clock,
    logger,
  });

  const virementOptions = {
    bankDelayMs: config.SIMULATOR_PAYER_DELAY,
    onAnswerScheduled: dueFor(answerVirements),
  };
  const app = createHttpApp({ logger, metrics });
  app.use(
    simulatorRoutes({
      issueToken: new IssueToken(client, clock),
      authorize: new Authorize(client, clock),
      registerWebhook: new RegisterWebhook(webhooks, clock),
      getWebhook: new GetWebhook(webhooks),
      deleteWebhook: new DeleteWebhook(webhooks, clock),
      createDemande: new CreateDemande(demandes, clock, logger, {
        payerDelayMs: config.SIMULATOR_PAYER_DELAY,
        onPayerActionScheduled: (dueAt) => payers.wakeAt(dueAt),
      }),
      getDemande: new GetDemande(demandes),
      payDemande: new PayDemande(payerActions, config.SIMULATOR_CLIENT_ID, clock, logger, callbacksDue),
      returnFunds: new ReturnFunds(payerActions, clock, logger, (dueAt) => payers.wakeAt(dueAt)),
      createVirement: new CreateVirement(virements, clock, logger, virementOptions),
      getVirement: new GetVirement(virements),
      confirmVirement: new ConfirmVirement(virements, clock, logger, virementOptions),
    }),
  );
  app.use(problemNotFound);
  app.use(problemErrorHandler(logger));
  finishHttpApp(app);
  const http = new HttpServer(app, {
    host: config.HOST,
    port: config.HTTP_PORT,
    name: 'pispi-simulator',
    logger,
  });

  const probes = probesOn({ config, logger, metrics, readiness: [databaseReadiness(db)] });
  const service = new Service(logger).add(
    probes,
    closing('database pool', () => db.destroy()),
    closing('callback connections', () => callbackSender.close()),
    payers,
    http,
  );
  return Object.assign(service, { http, probes });
}

export type Simulator = ReturnType<typeof composeSimulator>;
