import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPaidPayment, type KeyRing } from './creations';
import type { PaidWebhookReceiver } from './receiver';
import { StatusTally } from './stats';

/** Pause of a worker whose creation failed without a Retry-After, and the most it waits when told to. */
const FAILURE_PAUSE_MS = 200;
const LONGEST_PAUSE_MS = 5_000;

export interface PaidFigures {
  concurrency: number;
  created: number;
  /** Signed `payment.succeeded` per second, from the first to the last arrival within the load window. */
  paidPerSecond: number;
  paidInWindow: number;
  windowS: number;
  /** Every payment of the phase whose webhook arrived, the drain included. */
  paid: number;
  /** Per second from the phase's first to its last arrival, the drain included. */
  paidPerSecondOverall: number;
  /** Created, yet no webhook by the end of the drain. */
  missing: number;
  /** How long the wait for outstanding webhooks took once the load stopped. */
  drainS: number;
  statuses: StatusTally;
}

/**
 * Phase 3: `concurrency` workers, each creating a payment for the paying alias and waiting for its
 * `payment.succeeded` webhook before creating the next, for `durationS` seconds. So `concurrency` payments
 * are in flight at all times, well past what the stack completes per payer delay: the stack runs saturated
 * and the arrivals measure its paid throughput. A refused creation is retried after its Retry-After. Then
 * the outstanding webhooks are awaited for at most `drainS` seconds.
 */
export async function measurePaidPayments(
  keys: KeyRing,
  receiver: PaidWebhookReceiver,
  options: { concurrency: number; durationS: number; drainS: number },
): Promise<PaidFigures> {
  const statuses = new StatusTally();
  const arrivals: number[] = [];
  let created = 0;
  const start = performance.now();
  const loadEnd = start + options.durationS * 1_000;

  const worker = async (): Promise<void> => {
    while (performance.now() < loadEnd) {
      const { paymentId, retryAfterMs } = await createPaidPayment(keys, statuses);
      if (paymentId === undefined) {
        const pause = Math.min(
          retryAfterMs ?? FAILURE_PAUSE_MS,
          LONGEST_PAUSE_MS,
          loadEnd - performance.now(),
        );
        if (pause > 0) await sleep(pause);
        continue;
      }
      created += 1;
      const arrival = await receiver.waitFor(paymentId);
      if (arrival !== undefined) arrivals.push(arrival);
    }
  };
  const workers = Promise.all(Array.from({ length: options.concurrency }, worker));

  await sleep(Math.max(0, loadEnd - performance.now()));
  const drainStart = performance.now();
  const drainDeadline = new AbortController();
  await Promise.race([
    workers,
    sleep(options.drainS * 1_000, undefined, { signal: drainDeadline.signal }).catch(() => undefined),
  ]);
  drainDeadline.abort();
  receiver.releaseWaiters();
  await workers;
  const drainS = (performance.now() - drainStart) / 1_000;

  arrivals.sort((a, b) => a - b);
  const inWindow = arrivals.filter((arrival) => arrival <= loadEnd);
  const span = (sorted: number[]) =>
    sorted.length > 1 ? ((sorted.at(-1) ?? 0) - (sorted[0] ?? 0)) / 1_000 : 0;
  const rate = (sorted: number[]) => (span(sorted) > 0 ? (sorted.length - 1) / span(sorted) : NaN);
  const windowS = span(inWindow);
  return {
    concurrency: options.concurrency,
    created,
    paidPerSecond: rate(inWindow),
    paidInWindow: inWindow.length,
    windowS,
    paid: arrivals.length,
    paidPerSecondOverall: rate(arrivals),
    missing: created - arrivals.length,
    drainS,
    statuses,
  };
}
