import {
  createLogger,
  createMetrics,
  installShutdown,
  parseConfigOrExit,
  runMain,
  startHttpServer,
  systemClock,
} from '@sika/platform';
import { Redis } from 'ioredis';
import { Counter } from 'prom-client';

import { createUseCases } from './app/use-cases';
import { configSchema } from './config';
import { createServiceClients } from './infra/grpc-clients';
import { RedisRateLimiter } from './infra/redis-rate-limiter';
import { createGatewayApp } from './transport/http/gateway-app';

async function main(): Promise<void> {
  const config = parseConfigOrExit(configSchema);
  const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  const metrics = createMetrics({ service: 'gateway' });

  // No offline queue and a short timeout: while Redis is away, checks fail at once and requests go through.
  const redis = new Redis(config.REDIS_URL, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: config.RATE_LIMIT_REDIS_TIMEOUT,
  });
  redis.on('error', (error: Error) => logger.debug({ err: error }, 'redis connection error'));

  const clients = createServiceClients(
    {
      merchants: config.MERCHANTS_GRPC_ADDRESS,
      payments: config.PAYMENTS_GRPC_ADDRESS,
      ledger: config.LEDGER_GRPC_ADDRESS,
    },
    config.GRPC_DEADLINE,
  );
  const rateLimits = {
    test: { limit: config.RATE_LIMIT_TEST, windowMs: config.RATE_LIMIT_WINDOW },
    live: { limit: config.RATE_LIMIT_LIVE, windowMs: config.RATE_LIMIT_WINDOW },
  };
  const rateLimiter = new RedisRateLimiter({
    redis,
    policies: rateLimits,
    clock: systemClock,
    logger,
    failures: new Counter({
      name: 'gateway_rate_limiter_failures_total',
      help: 'Requests let through without a rate-limit check because Redis did not answer.',
      registers: [metrics.registry],
    }),
  });

  const app = createGatewayApp({
    logger,
    metrics,
    clock: systemClock,
    useCases: createUseCases(clients),
    rateLimiter,
    rateLimits,
    publicBaseUrl: config.PUBLIC_BASE_URL,
  });
  const server = await startHttpServer(app, { host: config.HOST, port: config.HTTP_PORT });
  logger.info({ host: config.HOST, port: server.port }, 'gateway listening');

  installShutdown({
    logger,
    timeoutMs: 25_000,
    steps: [
      { name: 'http server', run: () => server.close(10_000) },
      { name: 'grpc clients', run: async () => clients.close() },
      { name: 'redis', run: async () => void (await redis.quit()) },
    ],
  });
}

void runMain('gateway', main);
