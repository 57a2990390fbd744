import { createBroker } from '@sika/messaging';
import {
  createLogger,
  createMetrics,
  createPrismaClient,
  installShutdown,
  parseConfigOrExit,
  startMetricsServer,
  systemClock,
} from '@sika/platform';
import { configSchema, DB_SCHEMA, USER_AGENT } from './config';
import { PrismaClient } from './generated/prisma/client';
import { SecretBox } from './infra/secret-box';
import { startWebhookDispatcher } from './service';

async function main(): Promise<void> {
  const config = parseConfigOrExit(configSchema);
  const logger = createLogger({ service: 'webhook-dispatcher', level: config.LOG_LEVEL });
  const metrics = createMetrics({ service: 'webhook-dispatcher' });
  const prisma = createPrismaClient(PrismaClient, { url: config.DATABASE_URL, schema: DB_SCHEMA });
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
    readiness: [
      { name: 'database', check: async () => void (await prisma.$queryRaw`SELECT 1`) },
      {
        name: 'broker',
        check: async () => {
          if (!broker.isConnected()) throw new Error('not connected to RabbitMQ');
        },
      },
    ],
  });
  logger.info({ port: probes.port }, 'metrics server listening');

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

main().catch((error: unknown) => {
  // The logger may not exist yet (or be the cause): stderr is the one channel that always works.
  process.stderr.write(
    `webhook-dispatcher failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
