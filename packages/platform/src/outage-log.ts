import type { Logger } from './logger';

/**
 * A dependency a request may do without (the rate limiters' Redis) failing and coming back: the first failure
 * of an outage is a warning and the recovery an info line, so a long outage does not log once per request.
 */
export class OutageLog {
  private down = false;

  constructor(
    private readonly logger: Logger,
    private readonly messages: { down: string; up: string },
  ) {}

  failed(error: unknown): void {
    if (this.down) return;
    this.down = true;
    this.logger.warn({ err: error }, this.messages.down);
  }

  recovered(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info(this.messages.up);
  }
}
