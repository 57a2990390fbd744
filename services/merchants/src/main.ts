import { merchantsV1 } from '@sika/contracts';
import {
  createLogger,
  createMetrics,
  createPrismaClient,
  databaseReadiness,
  installShutdown,
  parseConfigOrExit,
  runMain,
  startGrpcServer,
  startMetricsServer,
  systemClock,
} from '@sika/platform';

import { createUseCases } from './app/use-cases';
import { configSchema } from './config';
import { PrismaClient } from './generated/prisma/client';
import { PrismaMerchantStore } from './infra/prisma-merchant-store';
import { merchantsGrpcService } from './transport/grpc-service';

async function main(): Promise<void> {
  const config = parseConfigOrExit(configSchema);
  const logger = createLogger({ service: 'merchants', level: config.LOG_LEVEL });
  const metrics = createMetrics({ service: 'merchants' });
  const prisma = createPrismaClient(PrismaClient, {
    url: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
  });

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

void runMain('merchants', main);
