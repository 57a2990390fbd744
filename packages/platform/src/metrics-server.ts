import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

import { evaluateReadiness, HEALTH_PATHS } from './health';
import type { ReadinessCheck } from './health';
import { GRACE_PERIODS } from './lifecycle';
import type { Component } from './lifecycle';
import type { Metrics } from './metrics';
import { listenGracefully } from './http/server';
import type { RunningHttpServer } from './http/server';

export interface MetricsServerOptions {
  host: string;
  port: number;
  metrics: Metrics;
  readiness: readonly ReadinessCheck[];
  logger: Logger;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * For processes without an HTTP app (gRPC services, consumers, relays): /metrics, /healthz and /readyz on
 * their own port, the same answers as the HTTP app gives.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<RunningHttpServer> {
  const { metrics, readiness, logger } = options;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (request.method !== 'GET') return sendJson(response, 405, { status: 'method_not_allowed' });
    switch (path) {
      case HEALTH_PATHS.liveness:
        return sendJson(response, 200, { status: 'ok' });
      case HEALTH_PATHS.readiness: {
        const report = await evaluateReadiness(readiness, logger);
        return sendJson(response, report.ready ? 200 : 503, report);
      }
      case HEALTH_PATHS.metrics: {
        const body = await metrics.registry.metrics();
        response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body);
        return;
      }
      default:
        return sendJson(response, 404, { status: 'not_found' });
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      logger.error({ err: error }, 'metrics server request failed');
      if (!response.headersSent) sendJson(response, 500, { status: 'error' });
    });
  });
  const running = await listenGracefully(server, options);
  // Logged here, as the gRPC server logs its own: with port 0 the log is where tests and operators find it.
  logger.info({ host: options.host, port: running.port }, 'metrics server listening');
  return running;
}

/**
 * /healthz, /readyz and /metrics of a process without an HTTP app of its own, as a component: in every
 * service it is the first to start and the last to stop, so probes and metrics answer throughout.
 */
export class ProbeServer implements Component {
  readonly name = 'probes';
  private running: RunningHttpServer | undefined;

  constructor(private readonly options: MetricsServerOptions) {}

  get port(): number {
    if (this.running === undefined) throw new Error('the probe server has not started');
    return this.running.port;
  }

  async start(): Promise<void> {
    this.running = await startMetricsServer(this.options);
  }

  async stop(): Promise<void> {
    await this.running?.close(GRACE_PERIODS.serverDrainMs);
  }
}
