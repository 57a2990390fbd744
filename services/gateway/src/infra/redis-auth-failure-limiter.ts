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

import type { AuthFailureLimiter } from '../app/ports';

export interface RedisAuthFailureLimiterOptions {
  redis: Redis;
  policy: RateLimitPolicy;
  clock: Clock;
  logger: Logger;
  /** Counts checks and failures left uncounted because Redis did not answer. */
  failures?: Counter;
}

/**
 * Failed authentications per client address in fixed windows, shared by every gateway replica. The Redis
 * key holds a digest of the address, never the address. When Redis does not answer, authentication goes
 * on unlimited (logged once per outage, counted in a metric): keys are far too long to guess, so the limit
 * protects merchants' database from floods rather than keys from guessing, and an outage of the limiter
 * must not become an outage of the API.
 */
export class RedisAuthFailureLimiter implements AuthFailureLimiter {
  private readonly outage: OutageLog;

  constructor(private readonly options: RedisAuthFailureLimiterOptions) {
    this.outage = new OutageLog(options.logger, {
      down: 'authentication failure limiter unavailable: failed authentications are not limited',
      up: 'authentication failure limiter available again',
    });
  }

  private position() {
    return windowAt(this.options.clock.now().getTime(), this.options.policy.windowMs);
  }

  private redisKey(address: string, windowIndex: number): string {
    const digest = createHash('sha256').update(address).digest('hex').slice(0, 32);
    return `gateway:authfail:${digest}:${windowIndex}`;
  }

  async check(address: string) {
    const position = this.position();
    try {
      const count = Number((await this.options.redis.get(this.redisKey(address, position.index))) ?? 0);
      this.outage.recovered();
      return decide(count + 1, this.options.policy, position);
    } catch (error) {
      this.unavailable(error);
      return undefined;
    }
  }

  async recordFailure(address: string): Promise<void> {
    const { redis, policy } = this.options;
    try {
      await redis.eval(
        COUNT_IN_WINDOW_SCRIPT,
        1,
        this.redisKey(address, this.position().index),
        2 * policy.windowMs,
      );
      this.outage.recovered();
    } catch (error) {
      this.unavailable(error);
    }
  }

  private unavailable(error: unknown): void {
    this.options.failures?.inc();
    this.outage.failed(error);
  }
}
