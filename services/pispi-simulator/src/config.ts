import { envVar } from '@sika/platform';
import { z } from 'zod';

/** The environment of the simulator (the port defaults to the local port table). */
export const configSchema = z.object({
  HOST: envVar.string().default('127.0.0.1'),
  /** API Business and token endpoint (and /healthz). */
  HTTP_PORT: envVar.port().default(8090),
  /** The operations port: /healthz, /readyz and /metrics, never routed from the Ingress. */
  METRICS_PORT: envVar.port().default(9190),
  LOG_LEVEL: envVar.logLevel().default('info'),
  DATABASE_URL: envVar.url(['postgres', 'postgresql']),
  /** The service's own Postgres schema; tests run the real main.ts on a schema of their own. */
  DATABASE_SCHEMA: envVar.postgresSchema().default('simulator'),
  /** The OAuth2 client the simulator accepts (psp-connector's PISPI_TEST_CLIENT_ID / _SECRET). */
  SIMULATOR_CLIENT_ID: envVar.string(),
  SIMULATOR_CLIENT_SECRET: envVar.string(),
  /** Lifetime of the access tokens it issues. */
  SIMULATOR_TOKEN_TTL: envVar.durationMs().prefault('1h'),
  /** How long a simulated payer takes to answer a request-to-pay (alias 1 pays, alias 2 refuses). */
  SIMULATOR_PAYER_DELAY: envVar.durationMs().prefault('300ms'),
  /** Bound of one callback POST. */
  SIMULATOR_CALLBACK_TIMEOUT: envVar.durationMs().prefault('10s'),
  /** Pause of the payers' and callbacks' loop when it has nothing to do. */
  SIMULATOR_POLL_INTERVAL: envVar.durationMs().prefault('200ms'),
  /**
   * How often the transfers and callbacks steps look for work this process was not told of: written before a
   * restart or by another replica, or a callback whose lease ran out in a process that died.
   */
  SIMULATOR_SWEEP_INTERVAL: envVar.durationMs().prefault('1s'),
});

export type Config = z.output<typeof configSchema>;
