import { z } from 'zod';
import { envVar } from '@sika/platform';

/** `host:port` of a gRPC peer, e.g. `127.0.0.1:50053` or `ledger:50054`. */
const grpcAddress = () =>
  z.string().regex(/^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:]+\]:\d{1,5}$/, { message: 'expected host:port' });

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
  PSP_CONNECTOR_GRPC_ADDRESS: grpcAddress(),
  LEDGER_GRPC_ADDRESS: grpcAddress(),
  MERCHANTS_GRPC_ADDRESS: grpcAddress(),
  /** The hosted page's origin: checkout_url = CHECKOUT_BASE_URL + /pay/ + payment id. */
  CHECKOUT_BASE_URL: envVar.url(['http', 'https']),
  /** How often the expiry scheduler looks for payments past their deadline. */
  EXPIRY_POLL_INTERVAL: envVar.durationMs().default(1_000),
  /** How often attempts left pending (the scheme never answered, e.g. after a crash) are sent again. */
  ATTEMPT_SWEEP_INTERVAL: envVar.durationMs().default(5_000),
});

export type Config = z.output<typeof configSchema>;
