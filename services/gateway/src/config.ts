import { envVar } from '@sika/platform';
import { z } from 'zod';

/** `host:port` of a gRPC service. */
const grpcAddress = () => envVar.string().regex(/^[^\s:]+:\d{1,5}$/, 'expected host:port');

export const configSchema = z.object({
  HOST: envVar.string().default('127.0.0.1'),
  HTTP_PORT: envVar.port().default(8080),
  LOG_LEVEL: envVar.logLevel().default('info'),
  REDIS_URL: envVar.url(['redis', 'rediss']),
  MERCHANTS_GRPC_ADDRESS: grpcAddress(),
  PAYMENTS_GRPC_ADDRESS: grpcAddress(),
  LEDGER_GRPC_ADDRESS: grpcAddress(),
  /** Deadline of each call to the services behind. */
  GRPC_DEADLINE: envVar.durationMs().default(5_000),
  /** Requests per window and per API key, for each mode. */
  RATE_LIMIT_TEST: envVar.positiveInt().default(100),
  RATE_LIMIT_LIVE: envVar.positiveInt().default(100),
  RATE_LIMIT_WINDOW: envVar.durationMs().pipe(z.number().min(1)).default(1_000),
  /** Past this, a rate-limit check counts as failed and the request goes through (fail open). */
  RATE_LIMIT_REDIS_TIMEOUT: envVar.durationMs().default(100),
  /** Announced in the OpenAPI document's `servers`, e.g. https://api.example.com. */
  PUBLIC_BASE_URL: envVar.url(['http', 'https']).optional(),
});

export type GatewayConfig = z.output<typeof configSchema>;
