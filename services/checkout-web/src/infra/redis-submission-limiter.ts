import { RedisWindowCounter, type RateLimitPolicy, type RedisLimitOptions } from '@sika/platform';

import type { SubmissionLimiter } from '../app/ports';

export type RedisSubmissionLimiterOptions = RedisLimitOptions & { policy: RateLimitPolicy };

/**
 * Alias submissions per client address in fixed windows, shared by every replica. When Redis does not
 * answer, submissions go through (logged once per outage, counted in a metric): payments still allows at
 * most 5 attempts per payment, and an outage of the limiter must not stop customers from paying.
 */
export class RedisSubmissionLimiter implements SubmissionLimiter {
  private readonly counter: RedisWindowCounter;

  constructor(private readonly options: RedisSubmissionLimiterOptions) {
    this.counter = RedisWindowCounter.forLimit(options, 'checkout:submissions', {
      down: 'submission limiter unavailable: alias submissions are not limited',
      up: 'submission limiter available again',
    });
  }

  hit(clientAddress: string) {
    return this.counter.hit(clientAddress, this.options.policy);
  }
}
