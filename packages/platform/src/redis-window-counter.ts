import { createHash } from 'node:crypto';

import type { Redis } from 'ioredis';
import type { Counter } from 'prom-client';

import type { Clock } from './clock';
import type { OutageLog } from './outage-log';
import { windowAt, type WindowPosition } from './rate-limit-window';

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

export interface WindowCount {
  /** The subject's count in the current window. */
  count: number;
  position: WindowPosition;
}

/**
 * A fixed window's count in one round trip (KEYS[1] = the window's key, ARGV[1] = its lifetime in ms): one
 * more, and the key expires once no window can need it.
 */
const COUNT_IN_WINDOW_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;
/** ioredis sends a script defined once by its digest (EVALSHA), and its text only when Redis lacks it. */
const COUNT_COMMAND = 'sikaCountInWindow';
type CountingRedis = Redis & {
  [COUNT_COMMAND](key: string, lifetimeMs: number): Promise<number>;
};

/**
 * Counts per subject (a client address, an API key digest …) in fixed windows in Redis, shared by every
 * replica: the one mechanism of the rate limits. The Redis key holds a digest of the subject, never the
 * subject, and expires once no window can need it. When Redis fails or is slow, an operation answers
 * undefined and the limit is the caller's to waive (every limit fails open: an outage of a limiter must
 * not become an outage of what it protects); the first failure of an outage is logged as a warning and the
 * recovery as info, so a long outage does not write one line per request.
 */
export class RedisWindowCounter {
  private readonly redis: CountingRedis;

  constructor(private readonly options: RedisWindowCounterOptions) {
    options.redis.defineCommand(COUNT_COMMAND, { numberOfKeys: 1, lua: COUNT_IN_WINDOW_SCRIPT });
    this.redis = options.redis as CountingRedis;
  }

  /** Counts one more for `subject` in its current window of `windowMs`: the count with it. */
  add(subject: string, windowMs: number): Promise<WindowCount | undefined> {
    return this.attempt(subject, windowMs, async (key) =>
      Number(await this.redis[COUNT_COMMAND](key, 2 * windowMs)),
    );
  }

  /** The count of `subject` in its current window of `windowMs`, without counting. */
  read(subject: string, windowMs: number): Promise<WindowCount | undefined> {
    return this.attempt(subject, windowMs, async (key) => Number((await this.redis.get(key)) ?? 0));
  }

  /** Clears the current window of `subject`. */
  async forget(subject: string, windowMs: number): Promise<void> {
    await this.attempt(subject, windowMs, (key) => this.redis.del(key));
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
