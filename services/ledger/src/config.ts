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
  /** Mutual TLS: the ledger's certificate (spiffe://sika/ledger), its key, and the internal CA (files). */
  ...grpcTlsEnv,
});

export type Config = z.output<typeof configSchema>;
