import {
  decide,
  OutageLog,
  RedisWindowCounter,
  type Logger,
  type RateLimitPolicy,
  type RedisWindowCounterOptions,
} from '@sika/platform';

import type { RateLimiter } from '../app/ports';

export type RedisRateLimiterOptions = Omit<RedisWindowCounterOptions, 'keyPrefix' | 'outage'> & {
  logger: Logger;
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
    this.counter = new RedisWindowCounter({
      ...options,
      keyPrefix: 'gateway:ratelimit',
      outage: new OutageLog(options.logger, {
        down: 'rate limiter unavailable: letting requests through unlimited',
        up: 'rate limiter available again',
      }),
    });
  }

  async hit(keyDigest: string, livemode: boolean) {
    const policy = livemode ? this.options.policies.live : this.options.policies.test;
    const counted = await this.counter.add(keyDigest, policy.windowMs);
    return counted && decide(counted.count, policy, counted.position);
  }
}
