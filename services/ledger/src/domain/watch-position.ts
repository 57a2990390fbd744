/**
 * Where the books watch has read up to. Ledger transaction ids come from a sequence when a transaction is
 * written, not when it commits: a transaction that was slow to commit (a stall, a held lock) can appear below
 * ids already read. So every id skipped below the position is kept as a gap and read again, alone, until it
 * appears or is old enough to have been rolled back (a conflict or a failure also leaves an id unused).
 */
export class WatchPosition {
  /** Gap id → when it was first seen missing (ms). */
  private readonly gaps = new Map<bigint, number>();

  constructor(
    private position: bigint,
    private readonly limits: {
      /** How long a gap is read again before it counts as rolled back. */
      gapWaitMs: number;
      /** The most gaps kept; beyond it the oldest ids go first. */
      maxGaps: number;
    },
  ) {}

  /** The last id read in order: the next round reads the ids after it. */
  get after(): bigint {
    return this.position;
  }

  /** The gaps to read again, those younger than gapWaitMs at `nowMs` (the older ones are forgotten). */
  pendingGaps(nowMs: number): bigint[] {
    for (const [id, seenAt] of this.gaps) {
      if (nowMs - seenAt >= this.limits.gapWaitMs) this.gaps.delete(id);
    }
    return [...this.gaps.keys()];
  }

  /**
   * Takes a round's reading: the ids it found after the position (in ascending order) and the gaps that have
   * appeared since. Ids skipped between the old position and the last id read become gaps.
   */
  advance(readAfter: readonly bigint[], gapsFound: readonly bigint[], nowMs: number): void {
    for (const id of gapsFound) this.gaps.delete(id);
    const most = BigInt(this.limits.maxGaps);
    let previous = this.position;
    const skipped: bigint[] = [];
    for (const id of readAfter) {
      // Of a long run of unused ids (a burst of conflicts), only the last ones could be kept anyway.
      const from = id - previous > most ? id - most : previous + 1n;
      for (let missing = from; missing < id; missing += 1n) skipped.push(missing);
      if (skipped.length > this.limits.maxGaps) skipped.splice(0, skipped.length - this.limits.maxGaps);
      previous = id;
    }
    for (const id of skipped) this.gaps.set(id, nowMs);
    // Map keys keep their insertion order, lowest ids first: the oldest gaps leave first.
    for (const id of this.gaps.keys()) {
      if (this.gaps.size <= this.limits.maxGaps) break;
      this.gaps.delete(id);
    }
    this.position = previous;
  }
}
