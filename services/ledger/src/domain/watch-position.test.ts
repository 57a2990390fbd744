import { WatchPosition } from './watch-position';

const limits = { gapWaitMs: 60_000, maxGaps: 5 };

describe('WatchPosition', () => {
  it('moves past the ids read and keeps the ids skipped as gaps', () => {
    const position = new WatchPosition(10n, limits);

    position.advance([11n, 12n, 15n, 16n], [], 0);

    expect(position.after).toBe(16n);
    expect(position.pendingGaps(0)).toEqual([13n, 14n]);
  });

  it('forgets a gap once it has been read, and one still missing after gapWaitMs', () => {
    const position = new WatchPosition(0n, limits);
    position.advance([3n], [], 0);
    position.advance([4n, 6n], [2n], 30_000);

    expect(position.pendingGaps(30_000)).toEqual([1n, 5n]);
    expect(position.pendingGaps(59_999)).toEqual([1n, 5n]);
    expect(position.pendingGaps(60_000)).toEqual([5n]);
    expect(position.pendingGaps(90_000)).toEqual([]);
  });

  it('stays where it is when a round reads nothing after it', () => {
    const position = new WatchPosition(7n, limits);
    position.advance([], [], 0);

    expect(position.after).toBe(7n);
    expect(position.pendingGaps(0)).toEqual([]);
  });

  it('keeps at most maxGaps, the highest ids, even across a long run of unused ids', () => {
    const position = new WatchPosition(0n, limits);
    position.advance([2n], [], 0);
    position.advance([1_000_000n], [], 1);

    expect(position.after).toBe(1_000_000n);
    expect(position.pendingGaps(1)).toEqual([999_995n, 999_996n, 999_997n, 999_998n, 999_999n]);
  });
});
