import { Writable } from 'node:stream';

import { createLogger, loadConfig, type Clock } from '@sika/platform';
import { createTestRedis, testIdentity, type TestRedis } from '@sika/testing';
import type { Redis } from 'ioredis';

import { composeGateway } from '../../src/compose';
import { configSchema } from '../../src/config';
import type { RateLimitPolicy } from '@sika/platform';
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
  /** The clock of the limiters' windows and of the key cache, to move time without waiting. */
  clock?: Clock;
  /** KEY_CACHE_TTL; off (0 ms) unless a test is about it, so each request asks merchants. */
  keyCacheTtl?: string;
  /** A Redis client to use instead of an isolated test one (e.g. one that cannot connect). */
  redis?: Redis;
  /** Failed authentications allowed per client address (generous unless a test is about it). */
  authFailureLimit?: RateLimitPolicy;
  /** TRUST_PROXY_HOPS: set, tests name their client's address in X-Forwarded-For. */
  trustProxyHops?: number;
}

export interface TestGateway {
  baseUrl: string;
  /** The operations port: /healthz, /readyz, /metrics. */
  opsUrl: string;
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
  const rateLimits = options.rateLimits ?? { test: GENEROUS, live: GENEROUS };
  if (rateLimits.test.windowMs !== rateLimits.live.windowMs) throw new Error('one window for both modes');
  const authFailureLimit = options.authFailureLimit ?? GENEROUS;
  const config = loadConfig(configSchema, {
    HTTP_PORT: '0',
    METRICS_PORT: '0',
    REDIS_URL: 'redis://127.0.0.1:6379',
    MERCHANTS_GRPC_ADDRESS: peers.addresses.merchants,
    PAYMENTS_GRPC_ADDRESS: peers.addresses.payments,
    LEDGER_GRPC_ADDRESS: peers.addresses.ledger,
    PAYOUTS_GRPC_ADDRESS: peers.addresses.payouts,
    WEBHOOKS_GRPC_ADDRESS: peers.addresses.webhooks,
    GRPC_DEADLINE: '2s',
    RATE_LIMIT_TEST: String(rateLimits.test.limit),
    RATE_LIMIT_LIVE: String(rateLimits.live.limit),
    RATE_LIMIT_WINDOW: `${rateLimits.test.windowMs}ms`,
    AUTH_FAILURE_LIMIT: String(authFailureLimit.limit),
    AUTH_FAILURE_WINDOW: `${authFailureLimit.windowMs}ms`,
    TRUST_PROXY_HOPS: String(options.trustProxyHops ?? 0),
    KEY_CACHE_TTL: options.keyCacheTtl ?? '0ms',
    ...(await testIdentity('gateway')).env,
  });
  const gateway = composeGateway(config, {
    logger,
    redis,
    ...(options.clock !== undefined && { clock: options.clock }),
  });
  await gateway.start();
  const server = gateway.http;
  const baseUrl = `http://127.0.0.1:${server.port}`;

  return {
    baseUrl,
    opsUrl: `http://127.0.0.1:${gateway.probes.port}`,
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
      await gateway.stop();
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
