/** What listen needs to know of an event to deliver each one once, oldest first. */
export interface ListedEvent {
  id: string;
  created_at: string;
}

/**
 * How far back each poll looks again before the latest event seen: an event can be listed a moment after
 * later ones (the webhook-dispatcher stores it when it consumes it), and must not be missed then.
 */
export const LOOKBACK_MS = 60_000;

/**
 * The events `sika listen` has seen, by id, over the lookback: each poll asks for the events created from
 * (latest seen − LOOKBACK_MS) and `take` keeps the ones not seen yet, oldest first. Pure.
 */
export class EventWindow {
  private readonly seen = new Map<string, number>();
  private latestMs: number | undefined;

  /** Marks events as already seen without delivering them: what existed before listen started. */
  skip(events: readonly ListedEvent[]): void {
    this.record(events);
  }

  /** The created_from of the next poll; undefined (everything) before any event was seen. */
  createdFrom(): string | undefined {
    return this.latestMs === undefined ? undefined : new Date(this.latestMs - LOOKBACK_MS).toISOString();
  }

  /** The events of a poll (most recent first, as the API lists them) not seen yet, oldest first. */
  take<E extends ListedEvent>(listed: readonly E[]): E[] {
    const fresh = listed.filter((event) => !this.seen.has(event.id)).reverse();
    this.record(fresh);
    return fresh;
  }

  private record(events: readonly ListedEvent[]): void {
    for (const event of events) {
      const at = Date.parse(event.created_at);
      this.seen.set(event.id, at);
      if (this.latestMs === undefined || at > this.latestMs) this.latestMs = at;
    }
    // Ids older than the lookback cannot be listed again: forget them.
    const horizon = (this.latestMs ?? 0) - 2 * LOOKBACK_MS;
    for (const [id, at] of this.seen) if (at < horizon) this.seen.delete(id);
  }
}
