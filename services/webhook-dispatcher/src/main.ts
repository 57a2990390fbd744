import { brokerReadiness, createBroker } from '@sika/messaging';
import {
  createLogger,
  createMetrics,
  createPrismaClient,
  databaseReadiness,
  installShutdown,
  parseConfigOrExit,
  runMain,
  startMetricsServer,
  systemClock,
} from '@sika/platform';
import { configSchema, USER_AGENT } from './config';
import { PrismaClient } from './generated/prisma/client';
import { SecretBox } from './infra/secret-box';
import { startWebhookDispatcher } from './service';

async function main(): Promise<void> {
  const config = parseConfigOrExit(configSchema);
  const logger = createLogger({ service: 'webhook-dispatcher', level: config.LOG_LEVEL });
  const metrics = createMetrics({ service: 'webhook-dispatcher' });
  const prisma = createPrismaClient(PrismaClient, {
    url: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
  });
  const broker = await createBroker({ url: config.AMQP_URL, logger });

  const dispatcher = await startWebhookDispatcher({
    prisma,
    broker,
    secrets: new SecretBox(config.WEBHOOK_SECRET_KEY),
    clock: systemClock,
    logger,
    metrics,
    host: config.HOST,
    grpcPort: config.GRPC_PORT,
    delivery: {
      timeoutMs: config.WEBHOOK_TIMEOUT,
      userAgent: USER_AGENT,
      pollIntervalMs: config.WEBHOOK_POLL_INTERVAL,
      concurrency: config.WEBHOOK_CONCURRENCY,
    },
    events: { exchange: config.EVENTS_EXCHANGE, queue: config.PAYMENT_EVENTS_QUEUE },
  });
  const probes = await startMetricsServer({
    host: config.HOST,
    port: config.METRICS_PORT,
    metrics,
    logger,
    readiness: [databaseReadiness(prisma), brokerReadiness(broker)],
  });

  installShutdown({
    logger,
    timeoutMs: 25_000,
    steps: [
      { name: 'grpc server', run: () => dispatcher.grpc.shutdown(10_000) },
      { name: 'event consumer', run: () => dispatcher.consumer.close() },
      // In-flight attempts are bounded by WEBHOOK_TIMEOUT; one cut short is made again after its lease.
      { name: 'delivery worker', run: () => dispatcher.worker.stop() },
      { name: 'probes', run: () => probes.close() },
      { name: 'broker', run: () => broker.close() },
      { name: 'database pool', run: () => prisma.$disconnect() },
    ],
  });
}

void runMain('webhook-dispatcher', main);
