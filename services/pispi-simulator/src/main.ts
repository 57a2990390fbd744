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
import { startSimulator } from './server';

async function main(): Promise<void> {
  const config = parseConfigOrExit(configSchema);
  const logger = createLogger({ service: 'pispi-simulator', level: config.LOG_LEVEL });
  const metrics = createMetrics({ service: 'pispi-simulator' });
  const prisma = createPrismaClient(PrismaClient, {
    url: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
  });

  const simulator = await startSimulator({
    prisma,
    host: config.HOST,
    httpPort: config.HTTP_PORT,
    client: {
      clientId: config.SIMULATOR_CLIENT_ID,
      clientSecret: config.SIMULATOR_CLIENT_SECRET,
      tokenTtlMs: config.SIMULATOR_TOKEN_TTL,
    },
    payerDelayMs: config.SIMULATOR_PAYER_DELAY,
    callbackTimeoutMs: config.SIMULATOR_CALLBACK_TIMEOUT,
    pollIntervalMs: config.SIMULATOR_POLL_INTERVAL,
    clock: systemClock,
    logger,
    metrics,
  });

  installShutdown({
    logger,
    timeoutMs: 25_000,
    steps: [
      { name: 'http server', run: () => simulator.http.close(10_000) },
      { name: 'worker', run: () => simulator.worker.stop() },
      { name: 'database pool', run: () => prisma.$disconnect() },
    ],
  });
}

void runMain('pispi-simulator', main);
