import { envVar, grpcTlsEnv } from '@sika/platform';
import { CHECKOUT_TOKEN_KEY_MIN_LENGTH } from '@sika/rules';
import { z } from 'zod';

export const configSchema = z.object({
  HOST: envVar.string().default('127.0.0.1'),
  HTTP_PORT: envVar.port().default(8081),
  /** The operations port: /healthz, /readyz and /metrics, never routed from the Ingress. */
  METRICS_PORT: envVar.port().default(9181),
  LOG_LEVEL: envVar.logLevel().default('info'),
  PAYMENTS_GRPC_ADDRESS: envVar.grpcAddress(),
  /** Mutual TLS to payments: checkout-web's certificate (spiffe://sika/checkout-web), its key, the internal CA. */
  ...grpcTlsEnv,
  /** Checks the token of every link; payments signs checkout_url with the same key. */
  CHECKOUT_TOKEN_KEY: envVar
    .string()
    .min(CHECKOUT_TOKEN_KEY_MIN_LENGTH, `must be at least ${CHECKOUT_TOKEN_KEY_MIN_LENGTH} characters`),
  /** Counts alias submissions per client address, shared by every replica. */
  REDIS_URL: envVar.url(['redis', 'rediss']),
  /** Past this, a submission-limit check counts as failed and the submission goes through. */
  REDIS_TIMEOUT: envVar.durationMs().prefault('200ms'),
  /** Deadline of each call to payments (a StartAttempt includes the scheme's answer to the request). */
  GRPC_DEADLINE: envVar.durationMs().prefault('10s'),
  /** How often an open waiting screen's event stream reads the payment. */
  SSE_POLL_INTERVAL: envVar.durationMs().pipe(z.number().min(100)).prefault('1s'),
  /** An event stream older than this is closed (the browser reconnects): bounds the work of a forgotten tab. */
  SSE_MAX_DURATION: envVar.durationMs().pipe(z.number().min(1_000)).prefault('10m'),
  /** Open event streams per process, then per client address; beyond, 503 and the page reloads instead. */
  SSE_MAX_STREAMS: envVar.positiveInt().default(500),
  SSE_MAX_STREAMS_PER_ADDRESS: envVar.positiveInt().default(10),
  /**
   * Alias submissions per client address and window, successful or not. Generous: one carrier-grade NAT may
   * put many customers behind one address.
   */
  SUBMISSION_LIMIT: envVar.positiveInt().default(20),
  SUBMISSION_WINDOW: envVar.durationMs().pipe(z.number().min(1_000)).prefault('10m'),
  /** Proxies in front (the ingress): how many `X-Forwarded-For` hops name the client's address. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(5).default(0),
});

export type Config = z.output<typeof configSchema>;
