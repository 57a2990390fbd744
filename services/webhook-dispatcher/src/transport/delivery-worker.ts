import type { Logger } from '@sika/platform';
import type { WebhookDeliverer } from '../app/deliver-webhook';

export interface DeliveryWorkerOptions {
  deliverer: WebhookDeliverer;
  /** Pause between scans when nothing was due. */
  pollIntervalMs: number;
  /** Attempts in flight at most in this process. */
  concurrency: number;
  logger: Logger;
}

/** After a failed scan (database down…), wait at least this long: retrying every poll would flood the logs. */
const FAILURE_PAUSE_MS = 2_000;

export interface DeliveryWorker {
  /** Looks for due deliveries now rather than at the end of the current pause (a new event was stored). */
  wake(): void;
  /** Stops claiming, then waits for the attempts in flight to be recorded. */
  stop(): Promise<void>;
}

/**
 * Polls Postgres for due deliveries and attempts them, up to `concurrency` at a time. Any number of
 * processes can run it: claims skip rows other workers hold. Time comes from the deliverer's clock, so a
 * test moves a ManualClock instead of waiting for retries.
 */
export function startDeliveryWorker({
  deliverer,
  pollIntervalMs,
  concurrency,
  logger,
}: DeliveryWorkerOptions): DeliveryWorker {
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let wake: (() => void) | undefined;

  function pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  }

  function track(attempt: Promise<void>): void {
    const tracked = attempt
      .catch((err: unknown) =>
        logger.error({ err }, 'webhook attempt failed to complete; retried after its lease'),
      )
      .finally(() => {
        inFlight.delete(tracked);
        // A slot opened while the worker was full: look for more work now rather than after a full pause.
        wake?.();
      });
    inFlight.add(tracked);
  }

  async function run(): Promise<void> {
    while (!stopping) {
      const capacity = concurrency - inFlight.size;
      let failed = false;
      if (capacity > 0) {
        try {
          const deliveries = await deliverer.claimDue(capacity);
          for (const delivery of deliveries) track(deliverer.attempt(delivery));
        } catch (err) {
          failed = true;
          logger.error({ err }, 'claiming due webhook deliveries failed');
        }
      }
      if (stopping) break;
      // Any attempt that finishes ends the pause early, so a backlog drains without waiting for the interval.
      await pause(failed ? Math.max(pollIntervalMs, FAILURE_PAUSE_MS) : pollIntervalMs);
    }
  }

  const running = run();
  return {
    wake() {
      wake?.();
    },
    async stop() {
      stopping = true;
      wake?.();
      await running;
      await Promise.allSettled([...inFlight]);
    },
  };
}
