import { merchantsV1 } from '@sika/contracts';
import {
  createLogger,
  createMetrics,
  createPrismaClient,
  installShutdown,
  parseConfigOrExit,
  startGrpcServer,
  startMetricsServer,
  systemClock,
} from '@sika/platform';

import { createUseCases } from './app/use-cases';
import { configSchema, DB_SCHEMA } from './config';
import { PrismaClient } from './generated/prisma/client';
import { PrismaMerchantStore } from './infra/prisma-merchant-store';
import { merchantsGrpcService } from './transport/grpc-service';

async function main(): Promise<void> {
  const config = parseConfigOrExit(configSchema);
  const logger = createLogger({ service: 'merchants', level: config.LOG_LEVEL });
  const metrics = createMetrics({ service: 'merchants' });
  const prisma = createPrismaClient(PrismaClient, { url: config.DATABASE_URL, schema: DB_SCHEMA });

  const store = new PrismaMerchantStore(prisma);
  const useCases = createUseCases({ store, pepper: config.API_KEY_PEPPER, clock: systemClock });

  const grpc = await startGrpcServer({
    host: config.HOST,
    port: config.GRPC_PORT,
    logger,
    metrics,
    services: [
      { definition: merchantsV1.MerchantsServiceService, implementation: merchantsGrpcService(useCases) },
    ],
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
  // The logger may not exist yet (or be the cause): stderr is the one channel that always works.
  process.stderr.write(
    `merchants failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
