import { createBroker } from '@sika/messaging';
import {
  createLogger,
  createMetrics,
  createPrismaClient,
  installShutdown,
  parseConfigOrExit,
  runMain,
  systemClock,
} from '@sika/platform';

import { configSchema } from './config';
import { PrismaClient } from './generated/prisma/client';
import { schemeDirectory } from './infra/schemes';
import { startPspConnector } from './server';

async function main(): Promise<void> {
  const config = parseConfigOrExit(configSchema);
  const logger = createLogger({ service: 'psp-connector', level: config.LOG_LEVEL });
  const metrics = createMetrics({ service: 'psp-connector' });
  const prisma = createPrismaClient(PrismaClient, {
    url: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
  });
  const broker = await createBroker({ url: config.AMQP_URL, logger });

  const connector = await startPspConnector({
    prisma,
    broker,
    schemes: schemeDirectory(config),
    host: config.HOST,
    grpcPort: config.GRPC_PORT,
    httpPort: config.HTTP_PORT,
    publicBaseUrl: config.PSP_CALLBACK_PUBLIC_URL,
    exchange: config.EVENTS_EXCHANGE,
    paymentDeadlineMs: config.PISPI_PAYMENT_DEADLINE,
    clock: systemClock,
    logger,
    metrics,
  });

  installShutdown({
    logger,
    timeoutMs: 25_000,
    steps: [
      { name: 'grpc server', run: () => connector.grpc.shutdown(10_000) },
      { name: 'http server', run: () => connector.http.close(10_000) },
      { name: 'callback registration', run: () => connector.registration.stop() },
      { name: 'outbox relay', run: () => connector.relay.stop() },
      { name: 'broker', run: () => broker.close() },
      { name: 'database pool', run: () => prisma.$disconnect() },
    ],
  });
}

void runMain('psp-connector', main);
