import type { Component, Logger } from '@sika/platform';

import type { ParticipantDirectory } from '../app/ports';
import type { RegisterPispiWebhook } from '../app/register-pispi-webhook';
import { MODES, type Mode } from '../domain/mode';

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 60_000;

/**
 * Registers each configured mode's callback URL at start, and keeps retrying (with a growing pause) a mode
 * whose participant cannot be reached yet, so the connector starts even before the simulator or the bank
 * answers. Requests can be sent meanwhile; callbacks are verified as soon as a registration is stored.
 */
export class RegistrationLoop implements Component {
  readonly name = 'callback registration';
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly register: RegisterPispiWebhook,
    private readonly schemes: ParticipantDirectory,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    for (const mode of MODES) {
      if (this.schemes[mode]) this.attempt(mode, FIRST_RETRY_MS);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.allSettled([...this.pending]);
  }

  private attempt(mode: Mode, nextDelayMs: number): void {
    const scheme = this.schemes[mode];
    if (this.stopped || !scheme) return;
    const run = this.register
      .execute(mode, scheme)
      .then(() => undefined)
      .catch((error: unknown) => {
        this.logger.warn(
          { err: error, mode, retry_in_ms: nextDelayMs },
          'scheme callback registration failed',
        );
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          this.attempt(mode, Math.min(nextDelayMs * 2, MAX_RETRY_MS));
        }, nextDelayMs);
        this.timers.add(timer);
      });
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }
}
