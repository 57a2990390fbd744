/** Nearest-rank percentile (q in 0..1) of values sorted ascending; NaN when there are none. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

/** Statuses the targets allow: success, or a refusal that tells the client when to come back. */
const THROTTLING = new Set(['429', '503']);

export type StatusCounts = Record<string, number>;

/**
 * Responses by status code ('error' for a request that got no response at all), and how many 429/503 came
 * without the Retry-After header that makes them an acceptable answer under load.
 */
export class StatusTally {
  readonly counts: StatusCounts = {};
  throttledWithoutRetryAfter = 0;

  record(status: number | 'error', retryAfter?: string): void {
    const key = String(status);
    this.counts[key] = (this.counts[key] ?? 0) + 1;
    if (THROTTLING.has(key) && !retryAfter) this.throttledWithoutRetryAfter += 1;
  }

  add(counts: StatusCounts, throttledWithoutRetryAfter: number): void {
    for (const [status, count] of Object.entries(counts))
      this.counts[status] = (this.counts[status] ?? 0) + count;
    this.throttledWithoutRetryAfter += throttledWithoutRetryAfter;
  }

  get total(): number {
    return Object.values(this.counts).reduce((sum, count) => sum + count, 0);
  }

  get succeeded(): number {
    return Object.entries(this.counts)
      .filter(([status]) => status.startsWith('2'))
      .reduce((sum, [, count]) => sum + count, 0);
  }

  /** Everything outside 2xx, 429 and 503: 500s, other 4xx, connection errors. */
  get unexpected(): StatusCounts {
    return Object.fromEntries(
      Object.entries(this.counts).filter(([status]) => !status.startsWith('2') && !THROTTLING.has(status)),
    );
  }

  /** `200×3012  429×40  500×3`, non-2xx included, in status order. */
  format(): string {
    const entries = Object.entries(this.counts).sort(([a], [b]) => a.localeCompare(b));
    return entries.length === 0 ? 'none' : entries.map(([status, count]) => `${status}×${count}`).join('  ');
  }
}
