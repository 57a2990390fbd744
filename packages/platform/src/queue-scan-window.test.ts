import { QueueScanWindow } from './queue-scan-window';

const WINDOW_MS = 10_000;
const FULL_SCAN_INTERVAL_MS = 5_000;
const BATCH = 100;

function windowWithElapsed(): { scans: QueueScanWindow; advance: (ms: number) => void } {
  let elapsed = 0;
  const scans = new QueueScanWindow({
    windowMs: WINDOW_MS,
    fullScanIntervalMs: FULL_SCAN_INTERVAL_MS,
    elapsedMs: () => elapsed,
  });
  return { scans, advance: (ms) => (elapsed += ms) };
}

const at = (ms: number) => new Date(Date.UTC(2026, 10, 26) + ms);

describe('QueueScanWindow', () => {
  it('scans the whole queue first, then the window before each scan', () => {
    const { scans, advance } = windowWithElapsed();
    expect(scans.start(at(0))).toBeNull();
    scans.scanned(null, 3, BATCH);
    advance(500);
    expect(scans.start(at(500))).toEqual(at(500 - WINDOW_MS));
  });

  it('scans the whole queue again once the interval has passed', () => {
    const { scans, advance } = windowWithElapsed();
    scans.scanned(scans.start(at(0)), 0, BATCH);
    advance(FULL_SCAN_INTERVAL_MS - 1);
    scans.scanned(scans.start(at(FULL_SCAN_INTERVAL_MS - 1)), 0, BATCH);
    advance(1);
    expect(scans.start(at(FULL_SCAN_INTERVAL_MS))).toBeNull();
  });

  it('goes on scanning the whole queue while the full scans fill their batch', () => {
    const { scans, advance } = windowWithElapsed();
    scans.scanned(scans.start(at(0)), BATCH, BATCH);
    advance(10);
    const next = scans.start(at(10));
    expect(next).toBeNull();
    scans.scanned(next, BATCH - 1, BATCH);
    advance(10);
    expect(scans.start(at(20))).toEqual(at(20 - WINDOW_MS));
  });

  it('scans the whole queue again after a failed full scan', () => {
    const { scans, advance } = windowWithElapsed();
    expect(scans.start(at(0))).toBeNull();
    advance(10);
    expect(scans.start(at(10))).toBeNull();
  });

  it('scans the whole queue when its time jumped past the previous window', () => {
    const { scans } = windowWithElapsed();
    scans.scanned(scans.start(at(0)), 0, BATCH);
    scans.scanned(scans.start(at(WINDOW_MS)), 0, BATCH);
    expect(scans.start(at(2 * WINDOW_MS + 1))).toBeNull();
  });
});
