import { EVENTS_EXCHANGE } from '@sika/contracts';
import { envVar, grpcTlsEnv } from '@sika/platform';
import { z } from 'zod';

/** The ledger's environment; ports default to the local port table (SERVICES.md). */
export const configSchema = z.object({
  DATABASE_URL: envVar.url(['postgres', 'postgresql']),
  /** The Postgres schema the ledger owns; tests run the real main.ts on a schema of their own. */
  DATABASE_SCHEMA: envVar.postgresSchema().default('ledger'),
  HOST: envVar.string().default('127.0.0.1'),
  GRPC_PORT: envVar.port().default(8054),
  METRICS_PORT: envVar.port().default(9104),
  LOG_LEVEL: envVar.logLevel().default('info'),
  /** RabbitMQ: the decisions the ledger applies (credits, refunds, payout releases) arrive as events. */
  AMQP_URL: envVar.url(['amqp', 'amqps']),
  /** Where those events are published; tests that run main.ts use an exchange of their own. */
  EVENTS_EXCHANGE: envVar.string().default(EVENTS_EXCHANGE),
  /** The books watch asks payments and payouts whether what the ledger booked follows their decisions. */
  PAYMENTS_GRPC_ADDRESS: envVar.grpcAddress(),
  PAYOUTS_GRPC_ADDRESS: envVar.grpcAddress(),
  /** How often the books watch reads what was booked since its last round. */
  BOOKS_WATCH_INTERVAL: envVar.durationMs().prefault('30s'),
  /** Prefixes the ledger's queue names (the contract's by default), so a test never competes with a stack. */
  DECISION_QUEUE_PREFIX: envVar.string().default(''),
  /** Mutual TLS: the ledger's certificate (spiffe://sika/ledger), its key, and the internal CA (files). */
  ...grpcTlsEnv,
});

export type Config = z.output<typeof configSchema>;
