import { createHash } from 'node:crypto';

import type { ChainableCommander, Redis } from 'ioredis';
import type { Counter } from 'prom-client';

import type { Clock } from './clock';
import type { Logger } from './logger';
import { OutageLog } from './outage-log';
import {
  decide,
  windowAt,
  type RateLimitDecision,
  type RateLimitPolicy,
  type WindowPosition,
} from './rate-limit-window';
import { StatementBatcher } from './statement-batcher';

export interface RedisWindowCounterOptions {
  redis: Redis;
  /** Before the subject's digest and the window's number in each Redis key, e.g. `gateway:authfail`. */
  keyPrefix: string;
  clock: Clock;
  /** Where Redis failing and answering again is logged (several counters of one limit share one). */
  outage: OutageLog;
  /** Counts the operations left undone because Redis did not answer. */
  failures?: Counter;
}

/** What a limit counted by one counter is built from: its outage log is its own, written to `logger`. */
export type RedisLimitOptions = Omit<RedisWindowCounterOptions, 'keyPrefix' | 'outage'> & { logger: Logger };

export interface WindowCount {
  /** The subject's count in the current window. */
  count: number;
  position: WindowPosition;
}

/**
 * A fixed window's count after adding ARGV[2] (KEYS[1] = the window's key, ARGV[1] = its lifetime in ms), in one
 * round trip; the key expires once no window can need it.
 */
const COUNT_IN_WINDOW_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;
/** ioredis sends a script defined once by its digest (EVALSHA), and its text only when Redis lacks it. */
const COUNT_COMMAND = 'sikaCountInWindow';
type CountingPipeline = ChainableCommander & {
  [COUNT_COMMAND](key: string, lifetimeMs: number, increment: number): ChainableCommander;
};

/** Counts asked for at most in one round trip. */
const MAX_BATCH = 1_000;

interface Increment {
  key: string;
  lifetimeMs: number;
}

/** The answers of a pipeline, in order; the first failed command fails them all. */
function answersOf(results: [Error | null, unknown][] | null): unknown[] {
  if (results === null) throw new Error('the Redis pipeline was not executed');
  return results.map(([error, answer]) => {
    if (error) throw error;
    return answer;
  });
}

/**
 * Counts per subject (a client address, an API key digest …) in fixed windows in Redis, shared by every
 * replica: the one mechanism of the rate limits. The Redis key holds a digest of the subject, never the
 * subject, and expires once no window can need it. When Redis fails or is slow, an operation answers
 * undefined and the limit is the caller's to waive (every limit fails open: an outage of a limiter must
 * not become an outage of what it protects); the first failure of an outage is logged as a warning and the
 * recovery as info, so a long outage does not write one line per request.
 *
 * Counts and reads arriving in the same turn of the event loop (StatementBatcher) take one round trip and one
 * command per window key: under load, the requests of one API key or one address read in one poll of the
 * sockets cost Redis one INCRBY, and each caller gets the count it would have got alone, in order.
 */
export class RedisWindowCounter {
  private readonly increments: StatementBatcher<Increment, number>;
  private readonly reads: StatementBatcher<string, number>;

  constructor(private readonly options: RedisWindowCounterOptions) {
    options.redis.defineCommand(COUNT_COMMAND, { numberOfKeys: 1, lua: COUNT_IN_WINDOW_SCRIPT });
    // Every Redis failure is one of the whole round trip: no item of a batch is retried alone.
    const batching = { maxBatchSize: MAX_BATCH, retryAloneWhen: () => false };
    this.increments = new StatementBatcher((items) => this.incrementAll(items), batching);
    this.reads = new StatementBatcher((keys) => this.readAll(keys), batching);
  }

  /** The counter of one limit, with the outage log of its own that says `outage.down` and `outage.up`. */
  static forLimit(
    options: RedisLimitOptions,
    keyPrefix: string,
    outage: { down: string; up: string },
  ): RedisWindowCounter {
    return new RedisWindowCounter({ ...options, keyPrefix, outage: new OutageLog(options.logger, outage) });
  }

  /** Counts one more request of `subject` and decides on it under `policy`; undefined when Redis did not answer. */
  async hit(subject: string, policy: RateLimitPolicy): Promise<RateLimitDecision | undefined> {
    const counted = await this.add(subject, policy.windowMs);
    return counted && decide(counted.count, policy, counted.position);
  }

  /** The decision on one more request of `subject` under `policy`, without counting it. */
  async check(subject: string, policy: RateLimitPolicy): Promise<RateLimitDecision | undefined> {
    const counted = await this.read(subject, policy.windowMs);
    return counted && decide(counted.count + 1, policy, counted.position);
  }

  /** Counts one more for `subject` in its current window of `windowMs`: the count with it. */
  add(subject: string, windowMs: number): Promise<WindowCount | undefined> {
    return this.attempt(subject, windowMs, (key) => this.increments.write({ key, lifetimeMs: 2 * windowMs }));
  }

  /** The count of `subject` in its current window of `windowMs`, without counting. */
  read(subject: string, windowMs: number): Promise<WindowCount | undefined> {
    return this.attempt(subject, windowMs, (key) => this.reads.write(key));
  }

  /** One INCRBY per key; the n items of a key get the counts its n INCRs in a row would have answered. */
  private async incrementAll(items: readonly Increment[]): Promise<number[]> {
    // The key names the window, so the items of one key share its lifetime.
    const byKey = new Map<string, { lifetimeMs: number; indexes: number[] }>();
    items.forEach(({ key, lifetimeMs }, index) => {
      const group = byKey.get(key);
      if (group === undefined) byKey.set(key, { lifetimeMs, indexes: [index] });
      else group.indexes.push(index);
    });
    const pipeline = this.options.redis.pipeline() as CountingPipeline;
    for (const [key, { lifetimeMs, indexes }] of byKey) {
      pipeline[COUNT_COMMAND](key, lifetimeMs, indexes.length);
    }
    const totals = answersOf(await pipeline.exec());
    const counts = new Array<number>(items.length);
    [...byKey.values()].forEach(({ indexes }, group) => {
      const before = Number(totals[group]) - indexes.length;
      indexes.forEach((index, position) => (counts[index] = before + position + 1));
    });
    return counts;
  }

  /** One MGET, which answers a key asked twice twice. */
  private async readAll(keys: readonly string[]): Promise<number[]> {
    const values = await this.options.redis.mget(...keys);
    return values.map((value) => Number(value ?? 0));
  }

  /** Clears the current window of `subject`. */
  async forget(subject: string, windowMs: number): Promise<void> {
    await this.attempt(subject, windowMs, (key) => this.options.redis.del(key));
  }

  private async attempt(
    subject: string,
    windowMs: number,
    operation: (key: string) => Promise<number>,
  ): Promise<WindowCount | undefined> {
    const position = windowAt(this.options.clock.now().getTime(), windowMs);
    const digest = createHash('sha256').update(subject).digest('hex').slice(0, 32);
    try {
      const count = await operation(`${this.options.keyPrefix}:${digest}:${position.index}`);
      this.options.outage.recovered();
      return { count, position };
    } catch (error) {
      this.options.failures?.inc();
      this.options.outage.failed(error);
      return undefined;
    }
  }
}
