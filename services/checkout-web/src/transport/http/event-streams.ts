import type { Response } from 'express';

export interface EventStreamLimits {
  /** Age at which a stream is closed (the browser reconnects). */
  maxDurationMs: number;
  /** Open streams in this process: each one polls payments, so this bounds that load. */
  maxStreams: number;
  /** Open streams per client address, so that one client cannot take the whole process's share. */
  maxStreamsPerAddress: number;
}

/** Why a stream was not opened: the server is stopping, or a cap is reached. */
export type StreamRefusal = 'stopping' | 'busy';

/**
 * The open server-sent event streams. Each gets an AbortSignal that fires when the browser leaves, when the
 * stream reaches its maximum age (the browser then reconnects, so a forgotten tab does not poll forever
 * through one connection), or when the server stops: closeAll() ends every stream at once so that shutdown
 * is not held up by long-lived responses, and browsers reconnect to another replica. Beyond either cap a
 * stream is refused: the page then falls back to reloading itself, which costs payments one read per reload.
 */
export class EventStreams {
  private readonly open = new Set<AbortController>();
  private readonly perAddress = new Map<string, number>();
  private closing = false;

  constructor(private readonly limits: EventStreamLimits) {}

  attach(response: Response, clientAddress: string): AbortSignal | StreamRefusal {
    if (this.closing) return 'stopping';
    const fromAddress = this.perAddress.get(clientAddress) ?? 0;
    if (this.open.size >= this.limits.maxStreams || fromAddress >= this.limits.maxStreamsPerAddress) {
      return 'busy';
    }
    const controller = new AbortController();
    const maxAge = setTimeout(() => controller.abort(), this.limits.maxDurationMs);
    maxAge.unref();
    const release = (): void => {
      if (!this.open.delete(controller)) return;
      clearTimeout(maxAge);
      const left = (this.perAddress.get(clientAddress) ?? 1) - 1;
      if (left === 0) this.perAddress.delete(clientAddress);
      else this.perAddress.set(clientAddress, left);
      controller.abort();
    };
    this.open.add(controller);
    this.perAddress.set(clientAddress, fromAddress + 1);
    response.on('close', release);
    controller.signal.addEventListener('abort', release, { once: true });
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
