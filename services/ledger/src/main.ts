import {
  createLogger,
  createMetrics,
  createPrismaClient,
  installShutdown,
  parseConfigOrExit,
  startMetricsServer,
  systemClock,
} from '@sika/platform';
import { configSchema, DB_SCHEMA } from './config';
import { PrismaClient } from './generated/prisma/client';
import { startLedgerServer } from './server';

async function main(): Promise<void> {
  const config = parseConfigOrExit(configSchema);
  const logger = createLogger({ service: 'ledger', level: config.LOG_LEVEL });
  const metrics = createMetrics({ service: 'ledger' });
  const prisma = createPrismaClient(PrismaClient, { url: config.DATABASE_URL, schema: DB_SCHEMA });

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
    readiness: [{ name: 'database', check: async () => void (await prisma.$queryRaw`SELECT 1`) }],
  });
  logger.info({ port: probes.port }, 'metrics server listening');
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

main().catch((error: unknown) => {
  process.stderr.write(
    `ledger failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
