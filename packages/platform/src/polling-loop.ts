import type { Logger } from 'pino';

import type { Clock } from './clock';
import type { Component } from './lifecycle';

export interface PollingLoopOptions {
  /** For the logs and the shutdown steps, e.g. `expiry` or `outbox-relay`. */
  name: string;
  /**
   * One round of work (a batch claimed with FOR UPDATE SKIP LOCKED, typically). Resolves true when more
   * work is waiting, so the next round starts at once; false to pause.
   */
  round: () => Promise<boolean>;
  /** Pause after a round that left nothing to do. wake() and wakeAt() cut it short. */
  intervalMs: number;
  /** Pause after a failed round (the database is down …); defaults to intervalMs. */
  failurePauseMs?: number;
  /**
   * Work the rounds started without waiting for it (deliveries in flight …): stop() waits for it after the
   * last round, so a graceful shutdown never cuts it short.
   */
  drain?: () => Promise<void>;
  /** Where due times (wakeAt) are read: the same clock as the work itself. */
  clock: Clock;
  logger: Logger;
}

/**
 * The one background loop of every service (outbox relay, expiry, sweepers, deliveries, the simulator's
 * payers): rounds back to back while there is work, a pause when there is none. A wake() that arrives while
 * a round runs is kept, so the next pause is skipped: news committed during a round is never left for the
 * next interval. Any number of replicas may run the same loop, since rounds claim rows with SKIP LOCKED.
 */
export class PollingLoop implements Component {
  readonly name: string;
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeRequested = false;
  private endPause: (() => void) | undefined;
  private readonly dueTimers = new Set<NodeJS.Timeout>();
  private readonly logger: Logger;

  constructor(private readonly options: PollingLoopOptions) {
    this.name = options.name;
    this.logger = options.logger.child({ loop: options.name });
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Starts the next round now, or right after the current one. */
  wake(): void {
    this.wakeRequested = true;
    this.endPause?.();
  }

  /** Wakes the loop when the clock reaches `dueAt` (something becomes due then), unless it ran before. */
  wakeAt(dueAt: Date): void {
    if (!this.running) return;
    const delayMs = dueAt.getTime() - this.options.clock.now().getTime();
    if (delayMs <= 0) {
      this.wake();
      return;
    }
    // Node counts a timer from the event loop's cached time, which lags the clock by the length of the turn
    // that set it: the timer may fire before `dueAt` by the clock the round reads, and a round then would
    // find nothing due and pause a whole interval. It waits for the rest instead.
    const timer = setTimeout(() => {
      this.dueTimers.delete(timer);
      this.wakeAt(dueAt);
    }, delayMs);
    timer.unref();
    this.dueTimers.add(timer);
  }

  /** Lets the current round finish, then waits for the work it started (drain), then resolves. */
  async stop(): Promise<void> {
    this.running = false;
    for (const timer of this.dueTimers) clearTimeout(timer);
    this.dueTimers.clear();
    this.endPause?.();
    await this.loop;
    await this.options.drain?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let more = false;
      let failed = false;
      try {
        more = await this.options.round();
      } catch (err) {
        failed = true;
        this.logger.error({ err }, 'round failed; trying again after a pause');
      }
      if (more && !failed) continue;
      await this.pause(
        failed ? (this.options.failurePauseMs ?? this.options.intervalMs) : this.options.intervalMs,
      );
    }
  }

  private async pause(ms: number): Promise<void> {
    if (this.running && !this.wakeRequested) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        this.endPause = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.endPause = undefined;
    }
    this.wakeRequested = false;
  }
}

/** A batch job as a loop: again at once while a batch finds work (a count above 0), else after `intervalMs`. */
export function batchLoop(options: {
  name: string;
  intervalMs: number;
  batch: () => Promise<number>;
  clock: Clock;
  logger: Logger;
}): PollingLoop {
  const { batch, ...rest } = options;
  return new PollingLoop({ ...rest, round: async () => (await batch()) > 0 });
}
