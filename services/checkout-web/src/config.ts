import { envVar } from '@sika/platform';
import { z } from 'zod';

export const configSchema = z.object({
  HOST: envVar.string().default('127.0.0.1'),
  HTTP_PORT: envVar.port().default(8081),
  LOG_LEVEL: envVar.logLevel().default('info'),
  PAYMENTS_GRPC_ADDRESS: envVar.grpcAddress(),
  /** Deadline of each call to payments (a StartAttempt includes the scheme's answer to the request). */
  GRPC_DEADLINE: envVar.durationMs().prefault('10s'),
  /** How often an open waiting screen's event stream reads the payment. */
  SSE_POLL_INTERVAL: envVar.durationMs().pipe(z.number().min(100)).prefault('1s'),
  /** An event stream older than this is closed (the browser reconnects): bounds the work of a forgotten tab. */
  SSE_MAX_DURATION: envVar.durationMs().pipe(z.number().min(1_000)).prefault('10m'),
});

export type Config = z.output<typeof configSchema>;
