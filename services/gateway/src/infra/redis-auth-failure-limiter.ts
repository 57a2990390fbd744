import { RedisWindowCounter, type RateLimitPolicy, type RedisLimitOptions } from '@sika/platform';

import type { AuthFailureLimiter } from '../app/ports';

export type RedisAuthFailureLimiterOptions = RedisLimitOptions & { policy: RateLimitPolicy };

/**
 * Failed authentications per client address in fixed windows, shared by every gateway replica. When Redis
 * does not answer, authentication goes on unlimited (logged once per outage, counted in a metric): keys
 * are far too long to guess, so the limit protects merchants' database from floods rather than keys from
 * guessing, and an outage of the limiter must not become an outage of the API.
 */
export class RedisAuthFailureLimiter implements AuthFailureLimiter {
  private readonly counter: RedisWindowCounter;

  constructor(private readonly options: RedisAuthFailureLimiterOptions) {
    this.counter = RedisWindowCounter.forLimit(options, 'gateway:authfail', {
      down: 'authentication failure limiter unavailable: failed authentications are not limited',
      up: 'authentication failure limiter available again',
    });
  }

  /** The decision on one more request from `address`, without counting it: only a failure counts. */
  check(address: string) {
    return this.counter.check(address, this.options.policy);
  }

  async recordFailure(address: string): Promise<void> {
    await this.counter.add(address, this.options.policy.windowMs);
  }
}
