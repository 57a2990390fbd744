import { Gauge, type Registry } from 'prom-client';
import type { Metrics } from '@sika/platform';

const DEAD_LETTERS = 'sika_dead_letter_messages';

/** A scrape waits no longer for the broker: a queue it could not read is left out of that scrape. */
const CHECK_TIMEOUT_MS = 1_000;

type DeadLetterCount = () => Promise<number>;
const countsByRegistry = new WeakMap<Registry, Map<string, DeadLetterCount>>();

/**
 * `sika_dead_letter_messages{queue}`: the messages waiting in each consumer's `<queue>.dlq` for an operator, read
 * from the broker on each scrape (a passive declare, one round trip a queue). Every replica reports the same
 * queue: aggregate with max, not sum. Returns what stops watching the queue (the consumer's close).
 */
export function watchDeadLetters(metrics: Metrics, queue: string, count: DeadLetterCount): () => void {
  let counts = countsByRegistry.get(metrics.registry);
  if (counts === undefined) {
    const watched = new Map<string, DeadLetterCount>();
    counts = watched;
    countsByRegistry.set(metrics.registry, watched);
    new Gauge({
      name: DEAD_LETTERS,
      help: "Messages in a consumer's dead-letter queue, waiting for an operator.",
      labelNames: ['queue'],
      registers: [metrics.registry],
      async collect() {
        this.reset();
        await Promise.all(
          [...watched].map(async ([watchedQueue, read]) => {
            const messages = await withTimeout(read()).catch(() => undefined);
            if (messages !== undefined) this.set({ queue: watchedQueue }, messages);
          }),
        );
      },
    });
  }
  counts.set(queue, count);
  return () => counts.delete(queue);
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('no answer from the broker')), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
