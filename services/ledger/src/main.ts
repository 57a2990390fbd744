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
import { configSchema } from './config';
import { PrismaClient } from './generated/prisma/client';
import { startLedgerServer } from './server';

async function main(): Promise<void> {
  const config = parseConfigOrExit(configSchema);
  const logger = createLogger({ service: 'ledger', level: config.LOG_LEVEL });
  const metrics = createMetrics({ service: 'ledger' });
  const prisma = createPrismaClient(PrismaClient, {
    url: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
  });

  const grpc = await startLedgerServer({
    prisma,
    host: config.HOST,
    grpcPort: config.GRPC_PORT,
    clock: systemClock,
    logger,
    metrics,
  });
  const probes = await startMetricsServer({
    host: config.HOST,
    port: config.METRICS_PORT,
    metrics,
    logger,
    readiness: [databaseReadiness(prisma)],
  });
  installShutdown({
    logger,
    timeoutMs: 25_000,
    steps: [
      { name: 'grpc server', run: () => grpc.shutdown(10_000) },
      { name: 'probes', run: () => probes.close() },
      { name: 'database pool', run: () => prisma.$disconnect() },
    ],
  });
}

void runMain('ledger', main);
