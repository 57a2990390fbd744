import type { Logger } from '@sika/platform';

import type { ApplyPayerActions } from '../app/apply-payer-actions';
import type { DeliverCallbacks } from '../app/deliver-callbacks';

/**
 * The simulator's background loop: payers answer, then callbacks go out. It polls its own tables, so work
 * written before a restart is picked up after it; wakeAt() cuts the pause short when something is due
 * sooner, which keeps callbacks prompt without polling hard.
 */
export class SimulatorWorker {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeSleeper: (() => void) | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly steps: { applyPayerActions: ApplyPayerActions; deliverCallbacks: DeliverCallbacks },
    private readonly logger: Logger,
    private readonly pollIntervalMs: number,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Finishes the current round, then stops. */
  async stop(): Promise<void> {
    this.running = false;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.wake();
    await this.loop;
  }

  wake(): void {
    this.wakeSleeper?.();
  }

  wakeAt(dueAt: Date): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.wake();
      },
      Math.max(0, dueAt.getTime() - Date.now()),
    );
    timer.unref();
    this.timers.add(timer);
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const answered = await this.steps.applyPayerActions.runOnce();
        const sent = await this.steps.deliverCallbacks.runOnce();
        if (answered > 0 || sent > 0) continue;
      } catch (error) {
        this.logger.error({ err: error }, 'simulator worker round failed; retrying after the poll interval');
      }
      await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.pollIntervalMs);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wakeSleeper = done;
    });
  }
}
