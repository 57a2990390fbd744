import { envVar } from './config';
import { grpcTlsEnv } from './grpc/tls';

/**
 * The variables of a gRPC service with a Postgres schema of its own, spread first into its config schema: where
 * it listens (ports without default: the stack and charts set them), its log level, its mutual TLS, server and
 * client (its certificate, spiffe://sika/<service>, its key and the internal CA), and its database. Every query
 * and migration stays inside `defaultSchema` unless DATABASE_SCHEMA names another (tests use their own).
 */
export function grpcServiceEnv(defaultSchema: string) {
  return {
    HOST: envVar.string().default('127.0.0.1'),
    GRPC_PORT: envVar.port(),
    METRICS_PORT: envVar.port(),
    LOG_LEVEL: envVar.logLevel().default('info'),
    ...grpcTlsEnv,
    DATABASE_URL: envVar.url(['postgres', 'postgresql']),
    DATABASE_SCHEMA: envVar.postgresSchema().default(defaultSchema),
  };
}
