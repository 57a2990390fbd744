import { Writable } from 'node:stream';

import {
  createLogger,
  createMetrics,
  startHttpServer,
  systemClock,
  type Clock,
  type RunningHttpServer,
} from '@sika/platform';
import { createTestRedis, type TestRedis } from '@sika/testing';
import type { Redis } from 'ioredis';

import { createUseCases } from '../../src/app/use-cases';
import type { RateLimitPolicy } from '../../src/domain/rate-limit-window';
import { createServiceClients } from '../../src/infra/grpc-clients';
import { RedisRateLimiter } from '../../src/infra/redis-rate-limiter';
import { createGatewayApp } from '../../src/transport/http/gateway-app';
import { startPeers, type Peers } from './peers';

/** Keys the merchants peer knows: merchant A in both modes, merchant B in test mode. */
export const KEYS = {
  aTest: 'sk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  aLive: 'sk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  bTest: 'sk_test_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB',
} as const;

export const SCOPES = {
  aTest: { merchantId: 'mer_A', livemode: false },
  aLive: { merchantId: 'mer_A', livemode: true },
  bTest: { merchantId: 'mer_B', livemode: false },
} as const;

export interface TestGatewayOptions {
  rateLimits?: { test: RateLimitPolicy; live: RateLimitPolicy };
  /** The limiter's clock, to move across windows without waiting. */
  limiterClock?: Clock;
  /** A Redis client to use instead of an isolated test one (e.g. one that cannot connect). */
  redis?: Redis;
}

export interface TestGateway {
  baseUrl: string;
  peers: Peers;
  redis: TestRedis | undefined;
  /** Every log line the gateway wrote. */
  logs: string[];
  request(
    path: string,
    init?: { method?: string; key?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  close(): Promise<void>;
}

const GENEROUS = { limit: 100_000, windowMs: 1_000 };

/** The gateway's real HTTP app on port 0, over real gRPC to the peers and real Redis. */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const peers = await startPeers();
  for (const [name, key] of Object.entries(KEYS))
    peers.merchants.keys.set(key, SCOPES[name as keyof typeof KEYS]);
  const testRedis = options.redis === undefined ? await createTestRedis({ prefix: 'gateway' }) : undefined;
  const redis = options.redis ?? testRedis!.redis;

  const logs: string[] = [];
  const logger = createLogger({
    service: 'gateway',
    level: 'debug',
    destination: new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        logs.push(chunk.toString());
        done();
      },
    }),
  });
  const clients = createServiceClients(peers.addresses, 2_000);
  const rateLimits = options.rateLimits ?? { test: GENEROUS, live: GENEROUS };
  const app = createGatewayApp({
    logger,
    metrics: createMetrics({ service: 'gateway' }),
    clock: systemClock,
    useCases: createUseCases(clients),
    rateLimiter: new RedisRateLimiter({
      redis,
      policies: rateLimits,
      clock: options.limiterClock ?? systemClock,
      logger,
    }),
    rateLimits,
  });
  const server: RunningHttpServer = await startHttpServer(app, { host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${server.port}`;

  return {
    baseUrl,
    peers,
    redis: testRedis,
    logs,
    request: (path, { method = 'GET', key = KEYS.aTest, body, headers = {} } = {}) =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          ...(key === null ? {} : { authorization: `Bearer ${key}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
    close: async () => {
      await server.close(1_000);
      clients.close();
      await peers.close();
      await testRedis?.cleanup();
    },
  };
}

export async function errorOf(
  response: Response,
): Promise<{ type: string; code: string; message: string; param?: string; request_id: string }> {
  const body = (await response.json()) as {
    error: { type: string; code: string; message: string; param?: string; request_id: string };
  };
  return body.error;
}
