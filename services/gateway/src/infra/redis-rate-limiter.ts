import {
  COUNT_IN_WINDOW_SCRIPT,
  decide,
  OutageLog,
  windowAt,
  type Clock,
  type Logger,
  type RateLimitPolicy,
} from '@sika/platform';
import type { Redis } from 'ioredis';
import type { Counter } from 'prom-client';

import type { RateLimiter } from '../app/ports';

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
  private readonly outage: OutageLog;

  constructor(private readonly options: RedisRateLimiterOptions) {
    this.outage = new OutageLog(options.logger, {
      down: 'rate limiter unavailable: letting requests through unlimited',
      up: 'rate limiter available again',
    });
  }

  async hit(keyDigest: string, livemode: boolean) {
    const { redis, policies, clock } = this.options;
    const policy = livemode ? policies.live : policies.test;
    const position = windowAt(clock.now().getTime(), policy.windowMs);
    try {
      const count = Number(
        await redis.eval(
          COUNT_IN_WINDOW_SCRIPT,
          1,
          `gateway:ratelimit:${keyDigest}:${position.index}`,
          2 * policy.windowMs,
        ),
      );
      this.outage.recovered();
      return decide(count, policy, position);
    } catch (error) {
      this.options.failures?.inc();
      this.outage.failed(error);
      return undefined;
    }
  }
}
