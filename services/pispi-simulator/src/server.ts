import {
  createHttpApp,
  databaseReadiness,
  finishHttpApp,
  startHttpServer,
  type Clock,
  type Logger,
  type Metrics,
  type RunningHttpServer,
} from '@sika/platform';

import { ApplyPayerActions } from './app/apply-payer-actions';
import { Authorize } from './app/authorize';
import { CreateDemande } from './app/create-demande';
import { DeleteWebhook } from './app/delete-webhook';
import { DeliverCallbacks } from './app/deliver-callbacks';
import { GetDemande } from './app/get-demande';
import { GetWebhook } from './app/get-webhook';
import { IssueToken } from './app/issue-token';
import type { OAuthClient } from './app/oauth-client';
import { RegisterWebhook } from './app/register-webhook';
import type { PrismaClient } from './generated/prisma/client';
import { HttpCallbackSender } from './infra/callback-sender';
import { PrismaDemandeRepository } from './infra/demande-repository';
import { PrismaNotificationRepository } from './infra/notification-repository';
import { PrismaPayerActionRepository } from './infra/payer-action-repository';
import { PrismaWebhookRepository } from './infra/webhook-repository';
import { problemErrorHandler, problemNotFound } from './transport/http/problem-middleware';
import { simulatorRoutes } from './transport/http/routes';
import { SimulatorWorker } from './transport/worker';

export interface SimulatorOptions {
  prisma: PrismaClient;
  host: string;
  /** 0 lets the OS choose (tests). */
  httpPort: number;
  client: OAuthClient;
  payerDelayMs: number;
  callbackTimeoutMs: number;
  pollIntervalMs: number;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
}

export interface RunningSimulator {
  http: RunningHttpServer;
  worker: SimulatorWorker;
}

/** A lease comfortably longer than one callback POST, so two workers never send the same one at once. */
const leaseFor = (callbackTimeoutMs: number): number => callbackTimeoutMs * 3;

/** Repositories → use cases → HTTP app and worker: the wiring shared by main.ts and the integration tests. */
export async function startSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const { prisma, client, clock, logger, metrics } = options;
  const webhooks = new PrismaWebhookRepository(prisma);
  const demandes = new PrismaDemandeRepository(prisma);

  const worker = new SimulatorWorker(
    {
      applyPayerActions: new ApplyPayerActions(new PrismaPayerActionRepository(prisma), clock, logger),
      deliverCallbacks: new DeliverCallbacks(
        new PrismaNotificationRepository(prisma),
        new HttpCallbackSender(options.callbackTimeoutMs),
        clock,
        logger,
        { batchSize: 20, leaseMs: leaseFor(options.callbackTimeoutMs) },
      ),
    },
    logger,
    options.pollIntervalMs,
  );

  const app = createHttpApp({
    logger,
    metrics,
    readiness: [databaseReadiness(prisma)],
  });
  app.use(
    simulatorRoutes({
      issueToken: new IssueToken(client, clock),
      authorize: new Authorize(client, clock),
      registerWebhook: new RegisterWebhook(webhooks, clock),
      getWebhook: new GetWebhook(webhooks),
      deleteWebhook: new DeleteWebhook(webhooks, clock),
      createDemande: new CreateDemande(demandes, clock, logger, {
        payerDelayMs: options.payerDelayMs,
        onPayerActionScheduled: (dueAt) => worker.wakeAt(dueAt),
      }),
      getDemande: new GetDemande(demandes),
    }),
  );
  app.use(problemNotFound);
  app.use(problemErrorHandler(logger));
  finishHttpApp(app);

  const http = await startHttpServer(app, { host: options.host, port: options.httpPort });
  worker.start();
  logger.info({ host: options.host, port: http.port }, 'pispi-simulator listening');
  return { http, worker };
}
