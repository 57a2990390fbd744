import type { Logger } from 'pino';

import { systemClock, type Clock } from './clock';
import { GrpcServer, type GrpcServiceRegistration } from './grpc/server';
import type { GrpcTls } from './grpc/tls';
import type { ReadinessCheck } from './health';
import { Service, type Component } from './lifecycle';
import { createLogger, type LoggerOptions } from './logger';
import { createMetrics, type Metrics } from './metrics';
import { ProbeServer } from './metrics-server';

/** What a test may hand to a service's compose.ts instead of the real thing. */
export interface BasicOverrides {
  clock?: Clock;
  logger?: Logger;
}

/** The logger, clock and metrics every compose.ts starts with; a test's own when it gives them. */
export function serviceBasics(
  service: string,
  config: { LOG_LEVEL: NonNullable<LoggerOptions['level']> },
  overrides: BasicOverrides,
): { logger: Logger; clock: Clock; metrics: Metrics } {
  return {
    logger: overrides.logger ?? createLogger({ service, level: config.LOG_LEVEL }),
    clock: overrides.clock ?? systemClock,
    metrics: createMetrics({ service }),
  };
}

/**
 * The operations port of a service: /healthz, /readyz and /metrics on its HOST and METRICS_PORT, a port the
 * charts never route from the Ingress (the public ports answer /healthz only).
 */
export function probesOn(options: {
  config: { HOST: string; METRICS_PORT: number };
  logger: Logger;
  metrics: Metrics;
  readiness: readonly ReadinessCheck[];
}): ProbeServer {
  const { config, ...rest } = options;
  return new ProbeServer({ host: config.HOST, port: config.METRICS_PORT, ...rest });
}

/**
 * A service whose API is gRPC, as its compose.ts returns it: the probes (/healthz, /readyz, /metrics on
 * METRICS_PORT) first, then `components` in start order, then the API on GRPC_PORT, so that it stops taking
 * calls before anything it calls stops, and the probes answer until the end.
 */
export function grpcService(
  options: {
    config: { HOST: string; GRPC_PORT: number; METRICS_PORT: number };
    logger: Logger;
    metrics: Metrics;
    readiness: readonly ReadinessCheck[];
    api: GrpcServiceRegistration;
    /** The service's certificate and the internal CA (grpcTls(config)). */
    tls: GrpcTls;
  },
  ...components: Component[]
): Service & { grpc: GrpcServer; probes: ProbeServer } {
  const { config, logger, metrics } = options;
  const grpc = new GrpcServer({
    host: config.HOST,
    port: config.GRPC_PORT,
    logger,
    metrics,
    services: [options.api],
    tls: options.tls,
  });
  const probes = probesOn({ config, metrics, logger, readiness: options.readiness });
  return Object.assign(new Service(logger).add(probes, ...components, grpc), { grpc, probes });
}
