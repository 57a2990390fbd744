import { Server } from '@grpc/grpc-js';
import type {
  handleUnaryCall,
  MethodDefinition,
  ServerOptions,
  ServiceDefinition,
  UntypedHandleCall,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';

import { GRACE_PERIODS } from '../lifecycle';
import type { Component } from '../lifecycle';
import type { Metrics } from '../metrics';
import { callersByMethod, type MethodCallers } from './callers';
import { serverCredentials, type GrpcTls } from './tls';
import { splitMethodPath, wrapUnaryHandler } from './unary-wrapper';

/**
 * A service to serve: ts-proto's `XServiceService` definition and an implementation typed as its
 * `XServiceServer` interface (use `satisfies XServiceServer` to keep the check).
 */
export interface GrpcServiceRegistration {
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
  /** Who may call each method: the service's GrpcCallers (see callers.ts). */
  callers: MethodCallers;
}

export interface GrpcServerOptions {
  host: string;
  /** 0 lets the OS choose (tests); the bound port is returned. */
  port: number;
  services: readonly GrpcServiceRegistration[];
  /** The server's certificate and the CA its callers' certificates must come from (mutual TLS). */
  tls: GrpcTls;
  logger: Logger;
  metrics?: Metrics;
  serverOptions?: ServerOptions;
}

export interface RunningGrpcServer {
  readonly port: number;
  /** Flips grpc.health.v1 for every service (and ""), e.g. to shed traffic before stopping. */
  setServing(serving: boolean): void;
  /** NOT_SERVING, then waits for calls in flight up to `graceMs`, then cancels what is left. */
  shutdown(graceMs: number): Promise<void>;
}

/** The health service answers for each service by its full name, and for "" meaning the whole server. */
const WHOLE_SERVER = '';

function serviceNameOf(definition: ServiceDefinition): string {
  const [firstMethod] = Object.values(definition) as MethodDefinition<unknown, unknown>[];
  if (firstMethod === undefined) throw new Error('a gRPC service definition needs at least one method');
  return splitMethodPath(firstMethod.path).service;
}

function isUnary(method: MethodDefinition<unknown, unknown>): boolean {
  return !method.requestStream && !method.responseStream;
}

/** Wraps the unary handlers; streaming handlers (none in Sika yet) are served as they are. */
function wrapImplementation(
  { definition, implementation, callers }: GrpcServiceRegistration,
  dependencies: { logger: Logger; metrics: Metrics | undefined },
): UntypedServiceImplementation {
  const allowed = callersByMethod(definition, callers);
  const wrapped: Record<string, UntypedHandleCall> = {};
  for (const [name, method] of Object.entries(definition) as [string, MethodDefinition<unknown, unknown>][]) {
    const handler = implementation[name];
    if (handler === undefined) continue;
    wrapped[name] = isUnary(method)
      ? wrapUnaryHandler(method.path, handler as handleUnaryCall<unknown, unknown>, {
          ...dependencies,
          callers: allowed.get(name) ?? [],
        })
      : handler;
  }
  return wrapped;
}

function bindAddress(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** A gRPC server with request context, error mapping, logs, metrics and grpc.health.v1 on every service. */
export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const { host, port, services, tls, logger, metrics, serverOptions } = options;
  const server = new Server(serverOptions);

  const serviceNames = services.map(({ definition }) => serviceNameOf(definition));
  const health = new HealthImplementation();
  health.addToServer(server);
  for (const registration of services) {
    server.addService(registration.definition, wrapImplementation(registration, { logger, metrics }));
  }

  const boundPort = await new Promise<number>((resolve, reject) => {
    server.bindAsync(bindAddress(host, port), serverCredentials(tls), (error, actualPort) =>
      error ? reject(error) : resolve(actualPort),
    );
  });

  function setServing(serving: boolean): void {
    for (const name of [WHOLE_SERVER, ...serviceNames])
      health.setStatus(name, serving ? 'SERVING' : 'NOT_SERVING');
  }
  setServing(true);
  logger.info({ host, port: boundPort, services: serviceNames }, 'grpc server listening');

  async function shutdown(graceMs: number): Promise<void> {
    setServing(false);
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        logger.warn(
          { grace_ms: graceMs },
          'grpc calls still running after the grace period: cancelling them',
        );
        server.forceShutdown();
        resolve();
      }, graceMs);
      server.tryShutdown(() => {
        clearTimeout(force);
        resolve();
      });
    });
    logger.info('grpc server stopped');
  }

  return { port: boundPort, setServing, shutdown };
}

/**
 * The gRPC server as a component of a service: listens on start(), and on stop() answers NOT_SERVING,
 * lets calls in flight finish for GRACE_PERIODS.serverDrainMs, then cancels what is left.
 */
export class GrpcServer implements Component {
  readonly name = 'grpc server';
  private running: RunningGrpcServer | undefined;

  constructor(private readonly options: GrpcServerOptions) {}

  /** The bound port (the OS's choice for port 0); only known once started. */
  get port(): number {
    if (this.running === undefined) throw new Error('the gRPC server has not started');
    return this.running.port;
  }

  async start(): Promise<void> {
    this.running = await startGrpcServer(this.options);
  }

  async stop(): Promise<void> {
    await this.running?.shutdown(GRACE_PERIODS.serverDrainMs);
  }
}
