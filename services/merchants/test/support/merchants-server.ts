import path from 'node:path';

import { merchantsV1 } from '@sika/contracts';
import {
  createGrpcClient,
  createLogger,
  createPrismaClient,
  startGrpcServer,
  systemClock,
} from '@sika/platform';
import type { GrpcClient, Logger } from '@sika/platform';
import { createTestSchema } from '@sika/testing';
import type { TestSchema } from '@sika/testing';

import { createUseCases } from '../../src/app/use-cases';
import { PrismaClient } from '../../src/generated/prisma/client';
import { PrismaMerchantStore } from '../../src/infra/prisma-merchant-store';
import { merchantsGrpcService } from '../../src/transport/grpc-service';

export const MIGRATIONS_DIR = path.resolve(__dirname, '../../prisma/migrations');
export const TEST_PEPPER = 'test-pepper-0123456789-abcdefghijklmnopqrstuvwxyz';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/** Silent unless TEST_LOG_LEVEL names a level (e.g. `debug` while investigating a failure). */
export function testLogger(): Logger {
  const level = LEVELS.find((candidate) => candidate === process.env.TEST_LOG_LEVEL) ?? 'silent';
  return createLogger({ service: 'merchants-test', level });
}

/** A fresh schema with the service's committed migrations applied. */
export function createMerchantsSchema(prefix: string): Promise<TestSchema> {
  return createTestSchema({ prefix, migrationsDir: MIGRATIONS_DIR });
}

export interface RunningMerchants {
  address: string;
  client: GrpcClient<merchantsV1.MerchantsServiceClient>;
  stop(): Promise<void>;
}

/**
 * The real service in this process, wired exactly as main.ts wires it, on a port the OS picks, with a real
 * gRPC client: everything but the environment parsing (covered by main.test.ts).
 */
export async function startMerchants(schema: TestSchema, pepper = TEST_PEPPER): Promise<RunningMerchants> {
  const prisma = createPrismaClient(PrismaClient, { url: schema.databaseUrl, schema: schema.schema });
  const useCases = createUseCases({ store: new PrismaMerchantStore(prisma), pepper, clock: systemClock });
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: testLogger(),
    services: [
      { definition: merchantsV1.MerchantsServiceService, implementation: merchantsGrpcService(useCases) },
    ],
  });
  const address = `127.0.0.1:${server.port}`;
  const client = createGrpcClient(merchantsV1.MerchantsServiceClient, address, { deadlineMs: 5_000 });
  return {
    address,
    client,
    stop: async () => {
      client.close();
      await server.shutdown(1_000);
      await prisma.$disconnect();
    },
  };
}
