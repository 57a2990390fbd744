import { decide, windowAt, type Clock, type Logger, type RateLimitPolicy } from '@sika/platform';
import type { Redis } from 'ioredis';
import type { Counter } from 'prom-client';

import type { RateLimiter } from '../app/ports';

/** One round trip: count the request, and let the window's key expire once nobody can need it. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

export interface RedisRateLimiterOptions {
  redis: Redis;
  policies: { test: RateLimitPolicy; live: RateLimitPolicy };
  clock: Clock;
  logger: Logger;
  /** Counts requests let through because Redis did not answer. */
  failures?: Counter;
}

/**
 * Fixed windows per API key in Redis, shared by every gateway replica. The Redis key holds the SHA-256 of
 * the API key, never the key. When Redis fails or is slow the request is let through (fail open): an
 * outage of the limiter must not become an outage of the API. The first failure of an outage is logged as
 * a warning and the recovery as info, so a long outage does not write one line per request.
 */
export class RedisRateLimiter implements RateLimiter {
  private failing = false;

  constructor(private readonly options: RedisRateLimiterOptions) {}

  async hit(keyDigest: string, livemode: boolean) {
    const { redis, policies, clock } = this.options;
    const policy = livemode ? policies.live : policies.test;
    const position = windowAt(clock.now().getTime(), policy.windowMs);
    try {
      const count = Number(
        await redis.eval(
          HIT_SCRIPT,
          1,
          `gateway:ratelimit:${keyDigest}:${position.index}`,
          2 * policy.windowMs,
        ),
      );
      this.recovered();
      return decide(count, policy, position);
    } catch (error) {
      this.failed(error);
      return undefined;
    }
  }

  private failed(error: unknown): void {
    this.options.failures?.inc();
    if (this.failing) return;
    this.failing = true;
    this.options.logger.warn({ err: error }, 'rate limiter unavailable: letting requests through unlimited');
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.options.logger.info('rate limiter available again');
  }
}
