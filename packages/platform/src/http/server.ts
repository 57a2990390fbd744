import type { Logger } from 'pino';
import { createServer } from 'node:http';
import type { RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { GRACE_PERIODS } from '../lifecycle';
import type { Component } from '../lifecycle';

export interface RunningHttpServer {
  /** The bound port: the one asked for, or the one the OS chose for port 0. */
  readonly port: number;
  /**
   * Stops accepting connections, lets requests in flight finish, closes keep-alive connections as soon as
   * they are idle, and force-closes whatever is still open after `graceMs`.
   */
  close(graceMs?: number): Promise<void>;
}

const DEFAULT_CLOSE_GRACE_MS = 10_000;

/**
 * How long an idle keep-alive connection is kept. Longer than any client's or load balancer's own idle timeout
 * (undici 4 s, most balancers 60 s), so the client always closes first: when the server closes a connection
 * the client is about to reuse, that request fails with "other side closed" (Node's 5 s default made it happen
 * whenever the client's timer fired late, e.g. on a busy machine).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Starts listening; shared by the HTTP app and the metrics server. */
export function listenGracefully(
  server: Server,
  { host, port }: { host: string; port: number },
): Promise<RunningHttpServer> {
  let closing = false;
  const inFlight = new Set<ServerResponse>();

  // While closing, answers carry `Connection: close` (so clients do not reuse a socket about to go) and
  // each finished exchange frees its socket at once, so keep-alive clients cannot hold the process open.
  server.on('request', (_request, response: ServerResponse) => {
    inFlight.add(response);
    if (closing && !response.headersSent) response.setHeader('connection', 'close');
    response.on('close', () => {
      inFlight.delete(response);
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
  });

  function close(graceMs = DEFAULT_CLOSE_GRACE_MS): Promise<void> {
    closing = true;
    for (const response of inFlight) if (!response.headersSent) response.setHeader('connection', 'close');
    return new Promise((resolve, reject) => {
      const forceClose = setTimeout(() => server.closeAllConnections(), graceMs);
      forceClose.unref();
      server.close((error) => {
        clearTimeout(forceClose);
        if (error) reject(error);
        else resolve();
      });
      server.closeIdleConnections();
    });
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({ port: (server.address() as AddressInfo).port, close });
    });
  });
}

/** Serves an HTTP request listener (an express app) with graceful close. */
export function startHttpServer(
  app: RequestListener,
  options: { host: string; port: number },
): Promise<RunningHttpServer> {
  const server = createServer(app);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Node requires the headers timeout to exceed the keep-alive timeout.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  return listenGracefully(server, options);
}

/**
 * An HTTP listener as a component of a service: listens on start() and logs `<name> listening` with its
 * port (tests read it when they let the OS choose), closes gracefully on stop().
 */
export class HttpServer implements Component {
  readonly name: string;
  private running: RunningHttpServer | undefined;

  constructor(
    private readonly app: RequestListener,
    private readonly options: { host: string; port: number; name: string; logger: Logger },
  ) {
    this.name = options.name;
  }

  /** The bound port (the OS's choice for port 0); only known once started. */
  get port(): number {
    if (this.running === undefined) throw new Error(`the ${this.name} has not started`);
    return this.running.port;
  }

  async start(): Promise<void> {
    const { host, port, logger } = this.options;
    this.running = await startHttpServer(this.app, { host, port });
    logger.info({ host, port: this.running.port }, `${this.name} listening`);
  }

  async stop(): Promise<void> {
    await this.running?.close(GRACE_PERIODS.serverDrainMs);
  }
}
