import { setTimeout as sleep } from 'node:timers/promises';
import { createPaidPayment, type KeyRing } from './creations';
import { openLoop } from './open-loop';
import type { PaidWebhookReceiver } from './receiver';
import { percentile, StatusTally } from './stats';

export interface FixedRateFigures {
  rate: number;
  scheduled: number;
  /** Creations per second actually started: below `rate` only if the benchmark itself fell behind. */
  offeredPerSecond: number;
  paid: number;
  missing: number;
  p50Ms: number;
  p99Ms: number;
  statuses: StatusTally;
}

/**
 * Phase 4: creations for the paying alias in an open loop (openLoop), each timed from its scheduled start to
 * its `payment.succeeded` webhook.
 */
export async function measureFixedRate(
  keys: KeyRing,
  receiver: PaidWebhookReceiver,
  options: { rate: number; durationS: number; drainS: number },
): Promise<FixedRateFigures> {
  const statuses = new StatusTally();
  const latencies: number[] = [];
  let created = 0;
  const scheduled = Math.round(options.rate * options.durationS);

  const one = async (scheduledAt: number): Promise<void> => {
    const { paymentId } = await createPaidPayment(keys, statuses);
    if (paymentId === undefined) return;
    created += 1;
    const arrival = await receiver.waitFor(paymentId);
    if (arrival !== undefined) latencies.push(arrival - scheduledAt);
  };

  const { started, offeredPerSecond } = await openLoop(options.rate, scheduled, one);

  const all = Promise.all(started);
  const drainDeadline = new AbortController();
  await Promise.race([
    all,
    sleep(options.drainS * 1_000, undefined, { signal: drainDeadline.signal }).catch(() => undefined),
  ]);
  drainDeadline.abort();
  receiver.releaseWaiters();
  await all;

  latencies.sort((a, b) => a - b);
  return {
    rate: options.rate,
    scheduled,
    offeredPerSecond,
    paid: latencies.length,
    missing: created - latencies.length,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    statuses,
  };
}
