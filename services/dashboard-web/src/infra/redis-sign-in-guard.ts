import {
  OutageLog,
  RedisWindowCounter,
  type Clock,
  type Logger,
  type RateLimitDecision,
} from '@sika/platform';
import type { Redis } from 'ioredis';

import type { SignInGuard } from '../app/ports';
import { signInVerdict, type SignInLimits } from '../domain/sign-in-limits';

/**
 * Failed sign-ins per account and per client address in fixed windows shared by every replica; neither the
 * address typed nor the client's IP address is kept in Redis in clear. When Redis does not answer, sign-ins
 * are let through (logged once per outage): the password check still stands, and an outage of the limiter
 * must not lock every merchant out of their dashboard.
 */
export class RedisSignInGuard implements SignInGuard {
  private readonly accounts: RedisWindowCounter;
  private readonly addresses: RedisWindowCounter;

  constructor(
    private readonly options: { redis: Redis; limits: SignInLimits; clock: Clock; logger: Logger },
  ) {
    const { redis, clock, logger } = options;
    // One outage log for both: they fail together, with the one Redis.
    const outage = new OutageLog(logger, {
      down: 'sign-in limiter unavailable: attempts are not limited',
      up: 'sign-in limiter available again',
    });
    this.accounts = new RedisWindowCounter({ redis, clock, outage, keyPrefix: 'dashboard:signin:account' });
    this.addresses = new RedisWindowCounter({ redis, clock, outage, keyPrefix: 'dashboard:signin:address' });
  }

  async check(accountKey: string, address: string): Promise<RateLimitDecision> {
    const { limits, clock } = this.options;
    const [account, addressCount] = await Promise.all([
      this.accounts.read(accountKey, limits.perAccount.windowMs),
      this.addresses.read(address, limits.perAddress.windowMs),
    ]);
    return signInVerdict(
      { account: account?.count ?? 0, address: addressCount?.count ?? 0 },
      limits,
      clock.now().getTime(),
    );
  }

  async recordFailure(accountKey: string, address: string): Promise<void> {
    const { limits } = this.options;
    await Promise.all([
      this.accounts.add(accountKey, limits.perAccount.windowMs),
      this.addresses.add(address, limits.perAddress.windowMs),
    ]);
  }

  async forgetAccount(accountKey: string): Promise<void> {
    await this.accounts.forget(accountKey, this.options.limits.perAccount.windowMs);
  }
}
