import type { Logger } from 'pino';

import { parseConfigOrExit } from './config';
import type { EnvSchema } from './config';
import { runMain } from './run-main';
import { installShutdown } from './shutdown';
import { stopTracing } from './tracing';
import type { ShutdownStep } from './shutdown';
import type { z } from 'zod';

/** A part of a service with something to open or close: a server, a pool, a loop, a consumer. */
export interface Component {
  /** For the logs: which part started, stopped, failed or hung. */
  readonly name: string;
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

/**
 * The same in every service. Kubernetes sends SIGTERM, then SIGKILL after the pod's grace period (the charts
 * give 40 s, of which the preStop hook takes 5): the whole stop stays under it, and servers let calls in
 * flight finish for a part of it before cutting them.
 */
export const GRACE_PERIODS = {
  shutdownMs: 25_000,
  serverDrainMs: 10_000,
} as const;

/** A component that only needs closing, e.g. a database pool or a gRPC client. */
export function closing(name: string, close: () => unknown): Component {
  return { name, stop: async () => void (await close()) };
}

/**
 * What a service's compose.ts returns: its components in start order. start() opens them one after the
 * other (closing those already open if one fails); stop() closes them in reverse order, so servers stop
 * taking work before the loops drain, and pools close last.
 */
export class Service {
  private readonly components: Component[] = [];
  private readonly started: Component[] = [];

  constructor(readonly logger: Logger) {}

  /** Adds components in start order. */
  add(...components: Component[]): this {
    this.components.push(...components);
    return this;
  }

  async start(): Promise<void> {
    for (const component of this.components) {
      try {
        await component.start?.();
      } catch (error) {
        this.logger.error({ err: error, component: component.name }, 'component failed to start');
        await this.stop().catch(() => {});
        throw error;
      }
      this.started.push(component);
    }
  }

  /** The components started so far, in the order they must stop: what installShutdown runs. */
  shutdownSteps(): ShutdownStep[] {
    return [...this.started]
      .reverse()
      .filter((component) => component.stop !== undefined)
      .map((component) => ({ name: component.name, run: () => component.stop?.() ?? Promise.resolve() }));
  }

  /** Runs every step even when one fails, then throws the first failure (tests; processes use runService). */
  async stop(): Promise<void> {
    const failures: unknown[] = [];
    for (const step of this.shutdownSteps()) {
      try {
        await step.run();
      } catch (error) {
        this.logger.error({ err: error, step: step.name }, 'shutdown step failed');
        failures.push(error);
      }
    }
    this.started.length = 0;
    if (failures.length > 0) throw failures[0];
  }
}

/**
 * A service process's whole main: parse the environment once, compose, start, then stop gracefully on
 * SIGTERM/SIGINT within GRACE_PERIODS.shutdownMs. A failure to start exits 1 with the reason on stderr.
 */
export function runService<S extends EnvSchema>(
  name: string,
  configSchema: S,
  compose: (config: z.output<S>) => Service,
): void {
  void runMain(name, async () => {
    const service = compose(parseConfigOrExit(configSchema));
    await service.start();
    installShutdown({
      logger: service.logger,
      // Last: the spans of the shutdown itself are sent too.
      steps: [...service.shutdownSteps(), { name: 'tracing', run: stopTracing }],
      timeoutMs: GRACE_PERIODS.shutdownMs,
    });
  });
}
