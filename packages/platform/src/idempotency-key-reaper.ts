import type { Clock } from './clock';
import type { Logger } from './logger';
import { batchLoop, type PollingLoop } from './polling-loop';
import type { IdempotencyKeyStore } from './sql-idempotency-key-store';

/** Often enough to keep the table small; a key past its 24 hours is free on use already (idempotencyVerdict). */
const REAP_INTERVAL_MS = 10 * 60_000;
const REAP_BATCH = 1_000;

/** The loop that deletes a service's idempotency keys past their 24 hours, a batch at a time. */
export function idempotencyKeyReaper(deps: {
  keys: IdempotencyKeyStore;
  /** The pool the deletes run on, outside any transaction. */
  client: object;
  clock: Clock;
  logger: Logger;
}): PollingLoop {
  const { keys, client, clock, logger } = deps;
  return batchLoop({
    name: 'idempotency-reaper',
    intervalMs: REAP_INTERVAL_MS,
    batch: () => keys.deleteExpired(client, clock.now(), REAP_BATCH),
    clock,
    logger,
  });
}
