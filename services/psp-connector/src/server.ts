import { pspV1 } from '@sika/contracts';
import { brokerReadiness, OutboxRelay, type Broker } from '@sika/messaging';
import {
  createHttpApp,
  databaseReadiness,
  finishHttpApp,
  startGrpcServer,
  startHttpServer,
  type Clock,
  type Logger,
  type Metrics,
  type RunningGrpcServer,
  type RunningHttpServer,
} from '@sika/platform';

import { HandleSchemeCallback } from './app/handle-scheme-callback';
import type { SchemeDirectory } from './app/ports';
import { RegisterSchemeWebhook } from './app/register-scheme-webhooks';
import { SendPaymentRequest } from './app/send-payment-request';
import { MODES } from './domain/mode';
import type { PrismaClient } from './generated/prisma/client';
import { PrismaCallbackStore } from './infra/callback-store';
import { PrismaPaymentRequestRepository } from './infra/payment-request-repository';
import { PrismaSchemeWebhookRepository } from './infra/scheme-webhook-repository';
import { pspConnectorService } from './transport/grpc/psp-connector-service';
import { callbackRoutes, CALLBACKS_PATH_PREFIX } from './transport/http/callback-routes';
import { captureRawBody } from './transport/http/raw-body';
import { RegistrationLoop } from './transport/registration-loop';

export interface PspConnectorOptions {
  prisma: PrismaClient;
  broker: Broker;
  schemes: SchemeDirectory;
  host: string;
  /** 0 lets the OS choose (tests). */
  grpcPort: number;
  httpPort: number;
  /** Base of the callback URLs registered with the participants. */
  publicBaseUrl: string;
  exchange: string;
  paymentDeadlineMs: number;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
}

export interface RunningPspConnector {
  grpc: RunningGrpcServer;
  http: RunningHttpServer;
  relay: OutboxRelay;
  registration: RegistrationLoop;
}

/** Callbacks list events; a megabyte leaves room for many without inviting abuse. */
const CALLBACK_BODY_LIMIT_BYTES = 1024 * 1024;

/** Repositories → use cases → gRPC, HTTP, relay: the wiring shared by main.ts and the integration tests. */
export async function startPspConnector(options: PspConnectorOptions): Promise<RunningPspConnector> {
  const { prisma, broker, schemes, clock, logger, metrics } = options;
  const webhooks = new PrismaSchemeWebhookRepository(prisma);

  const relay = new OutboxRelay({ prisma, broker, exchange: options.exchange, logger });
  await relay.start();

  const sendPaymentRequest = new SendPaymentRequest({
    requests: new PrismaPaymentRequestRepository(prisma),
    schemes,
    clock,
    logger,
    paymentDeadlineMs: options.paymentDeadlineMs,
  });
  const handleSchemeCallback = new HandleSchemeCallback({
    webhooks,
    store: new PrismaCallbackStore(prisma),
    clock,
    logger,
    onPublished: () => relay.wake(),
  });
  const registration = new RegistrationLoop(
    new RegisterSchemeWebhook({ webhooks, publicBaseUrl: options.publicBaseUrl, clock, logger }),
    schemes,
    logger,
  );

  const app = createHttpApp({
    logger,
    metrics,
    readiness: [
      databaseReadiness(prisma),
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
  app.use(callbackRoutes({ handleSchemeCallback }, CALLBACK_BODY_LIMIT_BYTES));
  finishHttpApp(app);
  const http = await startHttpServer(
    captureRawBody(app, { pathPrefix: CALLBACKS_PATH_PREFIX, limitBytes: CALLBACK_BODY_LIMIT_BYTES }),
    { host: options.host, port: options.httpPort },
  );

  const grpc = await startGrpcServer({
    host: options.host,
    port: options.grpcPort,
    logger,
    metrics,
    services: [
      {
        definition: pspV1.PspConnectorServiceService,
        implementation: pspConnectorService({ sendPaymentRequest }),
      },
    ],
  });
  registration.start();
  logger.info({ http_port: http.port, grpc_port: grpc.port }, 'psp-connector listening');
  return { grpc, http, relay, registration };
}
