import { createHash } from 'node:crypto';

import { windowAt, type Clock, type Logger, type RateLimitDecision } from '@sika/platform';
import type { Redis } from 'ioredis';

import type { SignInGuard } from '../app/ports';
import { signInVerdict, type SignInLimits } from '../domain/sign-in-limits';

/** One round trip: count the failure, and let the window's key expire once nobody can need it. */
const FAILURE_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/** Neither the address typed nor the client's IP address is kept in Redis in clear. */
const digest = (value: string): string => createHash('sha256').update(value).digest('hex').slice(0, 32);

/**
 * Failed sign-ins in fixed windows shared by every replica. When Redis does not answer, sign-ins are let
 * through (logged once per outage): the password check still stands, and an outage of the limiter must not
 * lock every merchant out of their dashboard.
 */
export class RedisSignInGuard implements SignInGuard {
  private failing = false;

  constructor(
    private readonly options: { redis: Redis; limits: SignInLimits; clock: Clock; logger: Logger },
  ) {}

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
      this.recovered();
      return signInVerdict(
        { account: Number(account ?? 0), address: Number(addressCount ?? 0) },
        limits,
        clock.now().getTime(),
      );
    } catch (error) {
      this.failed(error);
      return signInVerdict({ account: 0, address: 0 }, limits, clock.now().getTime());
    }
  }

  async recordFailure(accountKey: string, address: string): Promise<void> {
    const { redis, limits } = this.options;
    const [accountRedisKey, addressRedisKey] = this.keys(accountKey, address);
    try {
      await Promise.all([
        redis.eval(FAILURE_SCRIPT, 1, accountRedisKey, 2 * limits.perAccount.windowMs),
        redis.eval(FAILURE_SCRIPT, 1, addressRedisKey, 2 * limits.perAddress.windowMs),
      ]);
      this.recovered();
    } catch (error) {
      this.failed(error);
    }
  }

  async forgetAccount(accountKey: string): Promise<void> {
    const [accountRedisKey] = this.keys(accountKey, '');
    try {
      await this.options.redis.del(accountRedisKey);
    } catch (error) {
      this.failed(error);
    }
  }

  private failed(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.options.logger.warn({ err: error }, 'sign-in limiter unavailable: attempts are not limited');
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.options.logger.info('sign-in limiter available again');
  }
}
