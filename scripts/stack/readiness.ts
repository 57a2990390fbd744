import { setTimeout as sleep } from 'node:timers/promises';

const POLL_INTERVAL_MS = 200;
const REQUEST_TIMEOUT_MS = 1_000;

async function answers200(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false; // not listening yet, or too slow to answer
  }
}

/** Polls `url` until it answers 200 (true) or `stop` is aborted (false). */
export async function waitUntilReady(url: string, stop: AbortSignal): Promise<boolean> {
  while (!stop.aborted) {
    if (await answers200(url)) return true;
    await sleep(POLL_INTERVAL_MS, undefined, { signal: stop }).catch(() => undefined);
  }
  return false;
}
