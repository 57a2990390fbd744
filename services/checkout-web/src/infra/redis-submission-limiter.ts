import {
  decide,
  OutageLog,
  RedisWindowCounter,
  type Logger,
  type RateLimitPolicy,
  type RedisWindowCounterOptions,
} from '@sika/platform';

import type { SubmissionLimiter } from '../app/ports';

export type RedisSubmissionLimiterOptions = Omit<RedisWindowCounterOptions, 'keyPrefix' | 'outage'> & {
  logger: Logger;
  policy: RateLimitPolicy;
};

/**
 * Alias submissions per client address in fixed windows, shared by every replica. When Redis does not
 * answer, submissions go through (logged once per outage, counted in a metric): payments still allows at
 * most 5 attempts per payment, and an outage of the limiter must not stop customers from paying.
 */
export class RedisSubmissionLimiter implements SubmissionLimiter {
  private readonly counter: RedisWindowCounter;

  constructor(private readonly options: RedisSubmissionLimiterOptions) {
    this.counter = new RedisWindowCounter({
      ...options,
      keyPrefix: 'checkout:submissions',
      outage: new OutageLog(options.logger, {
        down: 'submission limiter unavailable: alias submissions are not limited',
        up: 'submission limiter available again',
      }),
    });
  }

  async hit(clientAddress: string) {
    const { policy } = this.options;
    const counted = await this.counter.add(clientAddress, policy.windowMs);
    return counted && decide(counted.count, policy, counted.position);
  }
}
