import { createHash } from 'node:crypto';

import { clientSubjectOf, OutageLog, RedisWindowCounter, type Clock, type Logger } from '@sika/platform';
import type { Redis } from 'ioredis';

import type { Admission, SignInGuard } from '../app/ports';
import { signInVerdict, type SignInLimits } from '../domain/sign-in-limits';

const SLOW_DOWN_PREFIX = 'dashboard:signin:slow';

/**
 * Sign-in attempts per account and per client address (an IPv6 address by its /64) in fixed windows shared by
 * every replica, counted before the password is checked: the counts are Redis increments, so a burst of
 * concurrent attempts gets one count each and cannot all pass the limit together. An account past its limit
 * gets one attempt per slow-down period, whoever takes it first (SET NX). Neither the address typed nor the
 * client's IP address is kept in Redis in clear. When Redis does not answer, sign-ins are let through (logged
 * once per outage): the password check still stands, and an outage of the limiter must not lock every
 * merchant out of their dashboard.
 */
export class RedisSignInGuard implements SignInGuard {
  private readonly accounts: RedisWindowCounter;
  private readonly addresses: RedisWindowCounter;
  private readonly outage: OutageLog;

  constructor(
    private readonly options: { redis: Redis; limits: SignInLimits; clock: Clock; logger: Logger },
  ) {
    const { redis, clock, logger } = options;
    // One outage log for all: they fail together, with the one Redis.
    this.outage = new OutageLog(logger, {
      down: 'sign-in limiter unavailable: attempts are not limited',
      up: 'sign-in limiter available again',
    });
    const outage = this.outage;
    this.accounts = new RedisWindowCounter({ redis, clock, outage, keyPrefix: 'dashboard:signin:account' });
    this.addresses = new RedisWindowCounter({ redis, clock, outage, keyPrefix: 'dashboard:signin:address' });
  }

  async admit(accountKey: string, address: string): Promise<Admission> {
    const { limits, clock } = this.options;
    const [account, addressCount] = await Promise.all([
      this.accounts.add(accountKey, limits.perAccount.windowMs),
      this.addresses.add(clientSubjectOf(address), limits.perAddress.windowMs),
    ]);
    const verdict = signInVerdict(
      { account: account?.count ?? 0, address: addressCount?.count ?? 0 },
      limits,
      clock.now().getTime(),
    );
    if (verdict.kind !== 'slowed_down') return verdict;
    return this.takeTurn(accountKey);
  }

  async forgetAccount(accountKey: string): Promise<void> {
    await this.accounts.forget(accountKey, this.options.limits.perAccount.windowMs);
  }

  /** The slowed-down account's one attempt of the period, or how long until the next one. */
  private async takeTurn(accountKey: string): Promise<Admission> {
    const { redis, limits } = this.options;
    const key = `${SLOW_DOWN_PREFIX}:${createHash('sha256').update(accountKey).digest('hex').slice(0, 32)}`;
    try {
      const taken = await redis.set(key, '1', 'PX', limits.accountSlowDownMs, 'NX');
      if (taken === 'OK') return { kind: 'allowed' };
      const leftMs = await redis.pttl(key);
      this.outage.recovered();
      return { kind: 'limited', retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)) };
    } catch (error) {
      this.outage.failed(error);
      return { kind: 'allowed' };
    }
  }
}
