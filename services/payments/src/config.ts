import { z } from 'zod';
import { RETENTION_CONFIG } from '@sika/messaging';
import { envVar } from '@sika/platform';

/** The environment of the payments service; required variables have no default (the stack and charts set them). */
export const configSchema = z.object({
  HOST: envVar.string().default('127.0.0.1'),
  GRPC_PORT: envVar.port(),
  METRICS_PORT: envVar.port(),
  LOG_LEVEL: envVar.logLevel().default('info'),
  DATABASE_URL: envVar.url(['postgres', 'postgresql']),
  /** The service's own Postgres schema: every query and migration stays inside it (tests use their own). */
  DATABASE_SCHEMA: envVar.postgresSchema().default('payments'),
  AMQP_URL: envVar.url(['amqp', 'amqps']),
  PSP_CONNECTOR_GRPC_ADDRESS: envVar.grpcAddress(),
  LEDGER_GRPC_ADDRESS: envVar.grpcAddress(),
  MERCHANTS_GRPC_ADDRESS: envVar.grpcAddress(),
  /** The hosted page's origin: checkout_url = CHECKOUT_BASE_URL + /pay/ + payment id. */
  CHECKOUT_BASE_URL: envVar.url(['http', 'https']),
  /** How often the expiry scheduler looks for payments past their deadline. */
  EXPIRY_POLL_INTERVAL: envVar.durationMs().prefault('1s'),
  /** How often attempts left pending (the scheme never answered, e.g. after a crash) are sent again. */
  ATTEMPT_SWEEP_INTERVAL: envVar.durationMs().prefault('5s'),
  ...RETENTION_CONFIG,
});

export type Config = z.output<typeof configSchema>;
