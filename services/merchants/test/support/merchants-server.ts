import path from 'node:path';

import { merchantsV1 } from '@sika/contracts';
import { createGrpcClient, createLogger, loadConfig } from '@sika/platform';
import type { GrpcClient, Logger } from '@sika/platform';
import { clientOfAllowedCallers, createTestSchema, testIdentity } from '@sika/testing';
import type { TestSchema } from '@sika/testing';

import { composeMerchants } from '../../src/compose';
import { configSchema } from '../../src/config';
import { MERCHANTS_CALLERS } from '../../src/transport/grpc/callers';

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
 * The real service in this process, composed exactly as main.ts composes it, on a port the OS picks, with a real
 * gRPC client: everything but the environment parsing (covered by main.test.ts). `env` adds variables (SMTP_URL).
 */
export async function startMerchants(
  schema: TestSchema,
  pepper = TEST_PEPPER,
  env: Record<string, string> = {},
): Promise<RunningMerchants> {
  const config = loadConfig(configSchema, {
    DATABASE_URL: schema.databaseUrl,
    DATABASE_SCHEMA: schema.schema,
    API_KEY_PEPPER: pepper,
    GRPC_PORT: '0',
    METRICS_PORT: '0',
    ...(await testIdentity('merchants')).env,
    ...env,
  });
  const merchants = composeMerchants(config, { logger: testLogger() });
  await merchants.start();
  const address = `127.0.0.1:${merchants.grpc.port}`;
  // Each method called as a caller the service allows (authenticateKey as gateway, approveActivation as cli …).
  const client = await clientOfAllowedCallers(MERCHANTS_CALLERS, (tls) =>
    createGrpcClient(merchantsV1.MerchantsServiceClient, address, { deadlineMs: 5_000, tls }),
  );
  return {
    address,
    client,
    stop: async () => {
      client.close();
      await merchants.stop();
    },
  };
}
