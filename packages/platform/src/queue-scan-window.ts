export interface QueueScanWindowOptions {
  /** How far back a routine scan looks from its own time. Longer than a writer may take to commit. */
  windowMs: number;
  /** How often a scan looks at the whole queue instead. */
  fullScanIntervalMs: number;
  /** Elapsed time for that schedule (not the scans' clock, which tests may move by hand). */
  elapsedMs?: () => number;
}

/**
 * Where the next scan of a queue table starts (an outbox, due decisions, payments to expire). A row that
 * leaves such a queue (published, applied, paid) leaves a dead entry in the index the scan walks until a
 * vacuum removes it, and a scan from the queue's oldest end walks every one: with autovacuum off, the
 * payments outbox's claim read 36,000 entries and took 13 ms after 36,000 payments. A routine scan starts
 * `windowMs` before its time instead. A full scan comes first, then every `fullScanIntervalMs`, again at
 * once while it fills its batch, and whenever the scans' time jumped past the previous window (a stall, a
 * clock moved by hand). A row is thus missed only if it entered the queue already older than the window,
 * and only until the next full scan.
 */
export class QueueScanWindow {
  private readonly elapsedMs: () => number;
  private fullScanDueAt = Number.NEGATIVE_INFINITY;
  private previousScanAt: number | undefined;

  constructor(private readonly options: QueueScanWindowOptions) {
    this.elapsedMs = options.elapsedMs ?? (() => performance.now());
  }

  /** The first time the scan at `at` looks at, or null: the whole queue. */
  start(at: Date): Date | null {
    const jumped =
      this.previousScanAt === undefined || at.getTime() - this.previousScanAt > this.options.windowMs;
    this.previousScanAt = at.getTime();
    if (jumped || this.elapsedMs() >= this.fullScanDueAt) {
      this.fullScanDueAt = Number.NEGATIVE_INFINITY;
      return null;
    }
    return new Date(at.getTime() - this.options.windowMs);
  }

  /** What the scan that started at `since` took: a full scan that filled its batch goes on at once. */
  scanned(since: Date | null, taken: number, batchSize: number): void {
    if (since === null && taken < batchSize) {
      this.fullScanDueAt = this.elapsedMs() + this.options.fullScanIntervalMs;
    }
  }
}
