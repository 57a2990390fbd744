import type { Logger } from '@sika/platform';

export interface PeriodicTaskOptions {
  name: string;
  /** Pause after a round that found nothing to do, or failed. */
  intervalMs: number;
  /** One batch; returns how many items it handled. */
  run: () => Promise<number>;
  logger: Logger;
}

/**
 * Runs a batch job in a loop: again at once while it finds work, else after `intervalMs`. Schedulers poll
 * Postgres with SKIP LOCKED, so any number of replicas can run the same task side by side.
 */
export class PeriodicTask {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeSleeper: (() => void) | undefined;
  private readonly logger: Logger;

  constructor(private readonly options: PeriodicTaskOptions) {
    this.logger = options.logger.child({ task: options.name });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Skips the current pause. */
  wake(): void {
    this.wakeSleeper?.();
  }

  /** Lets the current round finish, then stops. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let handled = 0;
      try {
        handled = await this.options.run();
      } catch (err) {
        this.logger.error({ err }, 'periodic task round failed; retrying after the interval');
      }
      if (handled === 0) await this.sleep(this.options.intervalMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wakeSleeper = done;
    });
  }
}
