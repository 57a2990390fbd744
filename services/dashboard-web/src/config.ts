import { envVar, grpcTlsEnv } from '@sika/platform';
import { z } from 'zod';

/** The environment of dashboard-web (ports default to the local port table). */
export const configSchema = z.object({
  HOST: envVar.string().default('127.0.0.1'),
  HTTP_PORT: envVar.port().default(8083),
  /** The operations port: /healthz, /readyz and /metrics, never routed from the Ingress. */
  METRICS_PORT: envVar.port().default(9183),
  LOG_LEVEL: envVar.logLevel().default('info'),
  DATABASE_URL: envVar.url(['postgres', 'postgresql']),
  /** The service's own Postgres schema (accounts, sessions, reset links); tests use their own. */
  DATABASE_SCHEMA: envVar.postgresSchema().default('dashboard'),
  /** Counts failed sign-ins, shared by every replica. */
  REDIS_URL: envVar.url(['redis', 'rediss']),
  MERCHANTS_GRPC_ADDRESS: envVar.grpcAddress(),
  PAYMENTS_GRPC_ADDRESS: envVar.grpcAddress(),
  LEDGER_GRPC_ADDRESS: envVar.grpcAddress(),
  WEBHOOKS_GRPC_ADDRESS: envVar.grpcAddress(),
  PAYOUTS_GRPC_ADDRESS: envVar.grpcAddress(),
  /** Mutual TLS to the services: the dashboard's certificate (spiffe://sika/dashboard-web), key, internal CA. */
  ...grpcTlsEnv,
  /** Test mode's bank, for "Simulate the customer's payment"; without it the button is refused. */
  SIMULATOR_URL: envVar.url(['http', 'https']).optional(),
  /** The dashboard's address as merchants reach it: reset links are built on it. */
  PUBLIC_URL: envVar.url(['http', 'https']).default('http://127.0.0.1:8083'),
  /** The public API's address, shown on the home page. */
  API_BASE_URL: envVar.url(['http', 'https']).default('http://127.0.0.1:8080/v1'),
  /**
   * Cookies marked `Secure` (and `__Host-` prefixed): on everywhere but a local run over plain http, where a
   * browser would drop them.
   */
  COOKIE_SECURE: envVar.boolean().default(true),
  /** Proxies in front (the ingress): how many `X-Forwarded-For` hops name the client's address for limits. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(5).default(0),
  GRPC_DEADLINE: envVar.durationMs().prefault('10s'),
  SESSION_IDLE_TIMEOUT: envVar.durationMs().prefault('12h'),
  SESSION_MAX_AGE: envVar.durationMs().prefault('7d'),
  PASSWORD_RESET_VALIDITY: envVar.durationMs().prefault('1h'),
  /** Sign-in attempts per account, then per client address (an IPv6 address by its /64), in each window. */
  SIGN_IN_ACCOUNT_LIMIT: envVar.positiveInt().default(5),
  SIGN_IN_ADDRESS_LIMIT: envVar.positiveInt().default(20),
  SIGN_IN_WINDOW: envVar.durationMs().prefault('15m'),
  /** Sign-ups per client address (an IPv6 address by its /64), and for everyone together, in each window. */
  SIGN_UP_ADDRESS_LIMIT: envVar.positiveInt().default(5),
  SIGN_UP_GLOBAL_LIMIT: envVar.positiveInt().default(200),
  SIGN_UP_WINDOW: envVar.durationMs().prefault('1h'),
  /** An account past its limit gets one attempt per this period (slowed down, never locked out). */
  SIGN_IN_SLOW_DOWN: envVar.durationMs().prefault('1m'),
});

export type Config = z.output<typeof configSchema>;
