import type { Logger } from 'pino';

export interface ShutdownStep {
  /** For the log: which step ran, failed or hung. */
  name: string;
  run: () => Promise<void>;
}

export interface ShutdownOptions {
  logger: Logger;
  /** In order: stop accepting (servers, consumers), drain (relays, work in flight), then close pools. */
  steps: readonly ShutdownStep[];
  /** Past this the process exits 1 whatever is still running; keep it under the orchestrator's grace period. */
  timeoutMs: number;
  signals?: readonly NodeJS.Signals[];
  exit?: (code: number) => void;
}

export interface ShutdownHandle {
  /** Starts the same sequence without a signal (e.g. after a fatal error); later calls return the same promise. */
  shutdown(reason: string): Promise<void>;
}

/**
 * Graceful stop on SIGTERM/SIGINT: the steps run one after the other, then the process exits 0 (1 if a
 * step failed or the whole sequence passed `timeoutMs`). A second signal does not start it again and does
 * not kill the process: Ctrl-C in a terminal and a supervisor's SIGTERM often arrive together, and the
 * drain must not be cut short by the second one. The timeout is what bounds a stuck shutdown.
 */
export function installShutdown({
  logger,
  steps,
  timeoutMs,
  signals = ['SIGTERM', 'SIGINT'],
  exit = (code) => process.exit(code),
}: ShutdownOptions): ShutdownHandle {
  let running: Promise<void> | undefined;

  async function runSteps(): Promise<boolean> {
    let allSucceeded = true;
    for (const step of steps) {
      const startedAt = Date.now();
      try {
        await step.run();
        logger.info({ step: step.name, duration_ms: Date.now() - startedAt }, 'shutdown step done');
      } catch (error) {
        // Later steps still run: a failed drain must not leave pools and sockets open.
        allSucceeded = false;
        logger.error({ err: error, step: step.name }, 'shutdown step failed');
      }
    }
    return allSucceeded;
  }

  function shutdown(reason: string): Promise<void> {
    if (running !== undefined) {
      logger.info({ reason }, 'shutdown already in progress');
      return running;
    }
    logger.info({ reason, timeout_ms: timeoutMs }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ timeout_ms: timeoutMs }, 'shutdown timed out');
      exit(1);
    }, timeoutMs);
    running = runSteps().then((allSucceeded) => {
      clearTimeout(timer);
      logger.info({ clean: allSucceeded }, 'shutdown complete');
      exit(allSucceeded ? 0 : 1);
    });
    return running;
  }

  for (const signal of signals) {
    // `on`, not `once`: after the first signal the handler must stay, or the next one would kill the process.
    process.on(signal, () => void shutdown(signal));
  }
  return { shutdown };
}
