import { RedisWindowCounter, type RateLimitPolicy, type RedisLimitOptions } from '@sika/platform';

import type { RateLimiter } from '../app/ports';

export type RedisRateLimiterOptions = RedisLimitOptions & {
  policies: { test: RateLimitPolicy; live: RateLimitPolicy };
};

/**
 * Requests per API key (by its digest) in fixed windows, shared by every gateway replica. When Redis fails or
 * is slow the request is let through (fail open): an outage of the limiter must not become an outage of the
 * API.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly counter: RedisWindowCounter;

  constructor(private readonly options: RedisRateLimiterOptions) {
    this.counter = RedisWindowCounter.forLimit(options, 'gateway:ratelimit', {
      down: 'rate limiter unavailable: letting requests through unlimited',
      up: 'rate limiter available again',
    });
  }

  hit(keyDigest: string, livemode: boolean) {
    const { policies } = this.options;
    return this.counter.hit(keyDigest, livemode ? policies.live : policies.test);
  }
}
