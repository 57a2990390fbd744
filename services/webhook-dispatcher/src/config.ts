import { CONSUMER_QUEUES, EVENTS_EXCHANGE } from '@sika/contracts';
import { RETENTION_CONFIG } from '@sika/messaging';
import { envVar, grpcTlsEnv, secretKeyVar } from '@sika/platform';
import { z } from 'zod';

/** The dispatcher's environment; ports default to the local port table (SERVICES.md). */
export const configSchema = z.object({
  DATABASE_URL: envVar.url(['postgres', 'postgresql']),
  /** The Postgres schema the dispatcher owns; tests run the real main.ts on a schema of their own. */
  DATABASE_SCHEMA: envVar.postgresSchema().default('webhooks'),
  AMQP_URL: envVar.url(['amqp', 'amqps']),
  /** Encrypts webhook secrets at rest: 32 bytes as 64 hex characters or base64 (`openssl rand -base64 32`). */
  WEBHOOK_SECRET_KEY: secretKeyVar.current(),
  /**
   * Keys that sealed secrets before WEBHOOK_SECRET_KEY, comma-separated: still read, never written. Kept until
   * `node dist/reseal-secrets.js` has resealed every secret with the current key.
   */
  WEBHOOK_SECRET_PREVIOUS_KEYS: secretKeyVar.previous(),
  /**
   * Lets webhook URLs reach loopback, private and other non-public addresses, on any port, and over http in
   * live mode: for local runs and tests, whose receivers listen on 127.0.0.1. Never in a deployment.
   */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: envVar.boolean().default(false),
  /**
   * The topic exchange payments publishes to, and this consumer's queue (its `.retry` and `.dlq` beside it):
   * the contract's names unless two deployments share one RabbitMQ vhost (and main.ts's own test, which must
   * not take a running stack's events).
   */
  EVENTS_EXCHANGE: envVar.string().default(EVENTS_EXCHANGE),
  PAYMENT_EVENTS_QUEUE: envVar.string().default(CONSUMER_QUEUES.webhooksPaymentEvents.queue),
  PAYOUT_EVENTS_QUEUE: envVar.string().default(CONSUMER_QUEUES.webhooksPayoutEvents.queue),
  HOST: envVar.string().default('127.0.0.1'),
  GRPC_PORT: envVar.port().default(8055),
  METRICS_PORT: envVar.port().default(9105),
  LOG_LEVEL: envVar.logLevel().default('info'),
  /** Mutual TLS: the service's certificate (spiffe://sika/webhook-dispatcher), its key, and the internal CA. */
  ...grpcTlsEnv,
  /** How long a receiver has to answer (spec §6: 10 seconds). */
  WEBHOOK_TIMEOUT: envVar.durationMs().prefault('10s'),
  /** Pause between scans for due deliveries when there was nothing to do. */
  WEBHOOK_POLL_INTERVAL: envVar.durationMs().prefault('250ms'),
  /** Attempts in flight per process. */
  WEBHOOK_CONCURRENCY: envVar.positiveInt().default(64),
  /**
   * Attempts in flight per endpoint and process, DNS lookup included: one merchant's endpoint that never
   * answers (or whose DNS never does) holds at most this many of the WEBHOOK_CONCURRENCY slots, while one that
   * answers keeps enough in flight to take its events as fast as a busy merchant's payments make them.
   */
  WEBHOOK_ENDPOINT_CONCURRENCY: envVar.positiveInt().default(16),
  /** A delivery's DNS lookup (A and AAAA together) is cancelled past this, and the attempt fails. */
  WEBHOOK_DNS_TIMEOUT: envVar.durationMs().prefault('5s'),
  /**
   * DNS servers to resolve webhook hosts with (`ip` or `ip:port`, comma-separated) instead of the system's
   * (resolv.conf): a resolver that does not see Sika's internal names, or a test's server.
   */
  WEBHOOK_DNS_SERVERS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((server) => server.trim())
        .filter((server) => server !== ''),
    ),
  /** Test events and resends per endpoint and minute; more are refused with rate_limited (429). */
  WEBHOOK_MANUAL_SENDS_PER_MINUTE: envVar.positiveInt().default(10),
  ...RETENTION_CONFIG,
});

export type Config = z.output<typeof configSchema>;

export const USER_AGENT = 'Sika-Webhooks/1.0';
