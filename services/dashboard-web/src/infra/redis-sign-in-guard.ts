import { createHash } from 'node:crypto';

import {
  COUNT_IN_WINDOW_SCRIPT,
  OutageLog,
  windowAt,
  type Clock,
  type Logger,
  type RateLimitDecision,
} from '@sika/platform';
import type { Redis } from 'ioredis';

import type { SignInGuard } from '../app/ports';
import { signInVerdict, type SignInLimits } from '../domain/sign-in-limits';

/** Neither the address typed nor the client's IP address is kept in Redis in clear. */
const digest = (value: string): string => createHash('sha256').update(value).digest('hex').slice(0, 32);

/**
 * Failed sign-ins in fixed windows shared by every replica. When Redis does not answer, sign-ins are let
 * through (logged once per outage): the password check still stands, and an outage of the limiter must not
 * lock every merchant out of their dashboard.
 */
export class RedisSignInGuard implements SignInGuard {
  private readonly outage: OutageLog;

  constructor(
    private readonly options: { redis: Redis; limits: SignInLimits; clock: Clock; logger: Logger },
  ) {
    this.outage = new OutageLog(options.logger, {
      down: 'sign-in limiter unavailable: attempts are not limited',
      up: 'sign-in limiter available again',
    });
  }

  private keys(accountKey: string, address: string): [string, string] {
    const now = this.options.clock.now().getTime();
    const { perAccount, perAddress } = this.options.limits;
    return [
      `dashboard:signin:account:${digest(accountKey)}:${windowAt(now, perAccount.windowMs).index}`,
      `dashboard:signin:address:${digest(address)}:${windowAt(now, perAddress.windowMs).index}`,
    ];
  }

  async check(accountKey: string, address: string): Promise<RateLimitDecision> {
    const { redis, limits, clock } = this.options;
    const [accountRedisKey, addressRedisKey] = this.keys(accountKey, address);
    try {
      const [account, addressCount] = await redis.mget(accountRedisKey, addressRedisKey);
      this.outage.recovered();
      return signInVerdict(
        { account: Number(account ?? 0), address: Number(addressCount ?? 0) },
        limits,
        clock.now().getTime(),
      );
    } catch (error) {
      this.outage.failed(error);
      return signInVerdict({ account: 0, address: 0 }, limits, clock.now().getTime());
    }
  }

  async recordFailure(accountKey: string, address: string): Promise<void> {
    const { redis, limits } = this.options;
    const [accountRedisKey, addressRedisKey] = this.keys(accountKey, address);
    try {
      await Promise.all([
        redis.eval(COUNT_IN_WINDOW_SCRIPT, 1, accountRedisKey, 2 * limits.perAccount.windowMs),
        redis.eval(COUNT_IN_WINDOW_SCRIPT, 1, addressRedisKey, 2 * limits.perAddress.windowMs),
      ]);
      this.outage.recovered();
    } catch (error) {
      this.outage.failed(error);
    }
  }

  async forgetAccount(accountKey: string): Promise<void> {
    const [accountRedisKey] = this.keys(accountKey, '');
    try {
      await this.options.redis.del(accountRedisKey);
    } catch (error) {
      this.outage.failed(error);
    }
  }
}
