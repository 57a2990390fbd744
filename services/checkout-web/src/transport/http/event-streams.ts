import type { Response } from 'express';

/**
 * The open server-sent event streams. Each gets an AbortSignal that fires when the browser leaves, when the
 * stream reaches its maximum age (the browser then reconnects, so a forgotten tab does not poll forever
 * through one connection), or when the server stops: closeAll() ends every stream at once so that shutdown
 * is not held up by long-lived responses, and browsers reconnect to another replica.
 */
export class EventStreams {
  private readonly open = new Set<AbortController>();
  private closing = false;

  constructor(private readonly maxDurationMs: number) {}

  /** Null when the server is stopping: the caller ends the response at once. */
  attach(response: Response): AbortSignal | null {
    if (this.closing) return null;
    const controller = new AbortController();
    const maxAge = setTimeout(() => controller.abort(), this.maxDurationMs);
    maxAge.unref();
    const release = (): void => {
      clearTimeout(maxAge);
      this.open.delete(controller);
      controller.abort();
    };
    response.on('close', release);
    controller.signal.addEventListener('abort', release, { once: true });
    this.open.add(controller);
    return controller.signal;
  }

  get size(): number {
    return this.open.size;
  }

  closeAll(): void {
    this.closing = true;
    for (const controller of [...this.open]) controller.abort();
  }
}
