import {
  decide,
  OutageLog,
  RedisWindowCounter,
  type Logger,
  type RateLimitPolicy,
  type RedisWindowCounterOptions,
} from '@sika/platform';

import type { AuthFailureLimiter } from '../app/ports';

export type RedisAuthFailureLimiterOptions = Omit<RedisWindowCounterOptions, 'keyPrefix' | 'outage'> & {
  logger: Logger;
  policy: RateLimitPolicy;
};

/**
 * Failed authentications per client address in fixed windows, shared by every gateway replica. When Redis
 * does not answer, authentication goes on unlimited (logged once per outage, counted in a metric): keys
 * are far too long to guess, so the limit protects merchants' database from floods rather than keys from
 * guessing, and an outage of the limiter must not become an outage of the API.
 */
export class RedisAuthFailureLimiter implements AuthFailureLimiter {
  private readonly counter: RedisWindowCounter;

  constructor(private readonly options: RedisAuthFailureLimiterOptions) {
    this.counter = new RedisWindowCounter({
      ...options,
      keyPrefix: 'gateway:authfail',
      outage: new OutageLog(options.logger, {
        down: 'authentication failure limiter unavailable: failed authentications are not limited',
        up: 'authentication failure limiter available again',
      }),
    });
  }

  /** The decision on one more request from `address`, without counting it: only a failure counts. */
  async check(address: string) {
    const { policy } = this.options;
    const counted = await this.counter.read(address, policy.windowMs);
    return counted && decide(counted.count + 1, policy, counted.position);
  }

  async recordFailure(address: string): Promise<void> {
    await this.counter.add(address, this.options.policy.windowMs);
  }
}
