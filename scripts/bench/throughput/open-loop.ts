import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

export interface OpenLoop {
  /** Every call started, in order. */
  started: Promise<void>[];
  /** Calls per second the schedule actually kept: below the rate only if this process fell behind. */
  offeredPerSecond: number;
}

/**
 * An open loop: `count` calls of `start`, the n-th at n × 1000/rate ms from now whether or not the earlier ones
 * are done, so a target that falls behind shows as latency (or as CPU per call) instead of slowing the
 * schedule down (no coordinated omission). `start` gets its call's due time (performance.now()).
 */
export async function openLoop(
  rate: number,
  count: number,
  start: (dueAt: number) => Promise<void>,
): Promise<OpenLoop> {
  const periodMs = 1_000 / rate;
  const started: Promise<void>[] = [];
  const begin = performance.now();
  for (let index = 0; index < count; index += 1) {
    const due = begin + index * periodMs;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait);
    started.push(start(due));
  }
  const scheduleS = (performance.now() - begin) / 1_000;
  return { started, offeredPerSecond: scheduleS > 0 ? (count - 1) / scheduleS : NaN };
}
