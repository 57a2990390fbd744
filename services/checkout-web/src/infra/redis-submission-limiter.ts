import { createHash } from 'node:crypto';

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

import type { SubmissionLimiter } from '../app/ports';

export interface RedisSubmissionLimiterOptions {
  redis: Redis;
  policy: RateLimitPolicy;
  clock: Clock;
  logger: Logger;
  /** Counts submissions let through because Redis did not answer. */
  failures?: Counter;
}

/**
 * Alias submissions per client address in fixed windows, shared by every replica. The Redis key holds a
 * digest of the address, never the address. When Redis does not answer, submissions go through (logged once
 * per outage, counted in a metric): payments still allows at most 5 attempts per payment, and an outage of
 * the limiter must not stop customers from paying.
 */
export class RedisSubmissionLimiter implements SubmissionLimiter {
  private readonly outage: OutageLog;

  constructor(private readonly options: RedisSubmissionLimiterOptions) {
    this.outage = new OutageLog(options.logger, {
      down: 'submission limiter unavailable: alias submissions are not limited',
      up: 'submission limiter available again',
    });
  }

  async hit(clientAddress: string) {
    const { redis, policy, clock } = this.options;
    const position = windowAt(clock.now().getTime(), policy.windowMs);
    const digest = createHash('sha256').update(clientAddress).digest('hex').slice(0, 32);
    try {
      const count = Number(
        await redis.eval(
          COUNT_IN_WINDOW_SCRIPT,
          1,
          `checkout:submissions:${digest}:${position.index}`,
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
