import { envVar, grpcTlsEnv } from '@sika/platform';
import { z } from 'zod';

export const configSchema = z.object({
  HOST: envVar.string().default('127.0.0.1'),
  HTTP_PORT: envVar.port().default(8080),
  /** The operations port: /healthz, /readyz and /metrics, never routed from the Ingress. */
  METRICS_PORT: envVar.port().default(9180),
  LOG_LEVEL: envVar.logLevel().default('info'),
  REDIS_URL: envVar.url(['redis', 'rediss']),
  MERCHANTS_GRPC_ADDRESS: envVar.grpcAddress(),
  PAYMENTS_GRPC_ADDRESS: envVar.grpcAddress(),
  LEDGER_GRPC_ADDRESS: envVar.grpcAddress(),
  PAYOUTS_GRPC_ADDRESS: envVar.grpcAddress(),
  /** webhook-dispatcher: the events API reads the events it stored. */
  WEBHOOKS_GRPC_ADDRESS: envVar.grpcAddress(),
  /** Mutual TLS to the services: the gateway's certificate (spiffe://sika/gateway), its key, the internal CA. */
  ...grpcTlsEnv,
  /** Deadline of each call to the services behind. */
  GRPC_DEADLINE: envVar.durationMs().prefault('5s'),
  /** Requests per window and per API key, for each mode. */
  RATE_LIMIT_TEST: envVar.positiveInt().default(100),
  RATE_LIMIT_LIVE: envVar.positiveInt().default(100),
  RATE_LIMIT_WINDOW: envVar.durationMs().pipe(z.number().min(1)).prefault('1s'),
  /** Past this, a rate-limit check counts as failed and the request goes through (fail open). */
  RATE_LIMIT_REDIS_TIMEOUT: envVar.durationMs().prefault('100ms'),
  /**
   * Failed authentications (401) per client address and window; beyond, 429 before merchants is asked.
   * Generous enough for the many customers one carrier-grade NAT puts behind a single address.
   */
  AUTH_FAILURE_LIMIT: envVar.positiveInt().default(20),
  AUTH_FAILURE_WINDOW: envVar.durationMs().pipe(z.number().min(1_000)).prefault('1m'),
  /**
   * How long merchants' answer for a valid key is reused: the longest a renewed (revoked) key keeps
   * working on a gateway. At most a second.
   */
  KEY_CACHE_TTL: envVar.durationMs().pipe(z.number().min(0).max(1_000)).prefault('1s'),
  /** Proxies in front (the ingress): how many `X-Forwarded-For` hops name the client's address. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(5).default(0),
  /**
   * Test mode's bank (pispi-simulator), for the test helper that makes a waiting customer pay. Unset where no
   * test mode runs: that helper then answers test_mode_only.
   */
  SIMULATOR_URL: envVar.url(['http', 'https']).optional(),
  /** Announced in the OpenAPI document's `servers`, e.g. https://api.example.com. */
  PUBLIC_BASE_URL: envVar.url(['http', 'https']).optional(),
});

export type Config = z.output<typeof configSchema>;
