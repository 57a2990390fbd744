import { clientSubjectOf, OutageLog, RedisWindowCounter, type Clock, type Logger } from '@sika/platform';
import type { Redis } from 'ioredis';

import type { Admission, SignUpGuard } from '../app/ports';
import { signUpRefusal, type SignUpLimits } from '../domain/sign-up-limits';

/** The subject of the global count: one key for every sign-up. */
const EVERY_SIGN_UP = 'all';

/**
 * Sign-ups per client address and for everyone, in fixed windows in Redis shared by every replica, counted as
 * they arrive (increments: a concurrent burst gets one count each). When Redis does not answer, sign-ups are let
 * through (logged once per outage), as every limit of Sika fails open.
 */
export class RedisSignUpGuard implements SignUpGuard {
  private readonly addresses: RedisWindowCounter;
  private readonly everyone: RedisWindowCounter;

  constructor(
    private readonly options: { redis: Redis; limits: SignUpLimits; clock: Clock; logger: Logger },
  ) {
    const { redis, clock, logger } = options;
    const outage = new OutageLog(logger, {
      down: 'sign-up limiter unavailable: sign-ups are not limited',
      up: 'sign-up limiter available again',
    });
    this.addresses = new RedisWindowCounter({ redis, clock, outage, keyPrefix: 'dashboard:signup:address' });
    this.everyone = new RedisWindowCounter({ redis, clock, outage, keyPrefix: 'dashboard:signup:global' });
  }

  async admit(address: string): Promise<Admission> {
    const { limits, clock } = this.options;
    const [mine, all] = await Promise.all([
      this.addresses.add(clientSubjectOf(address), limits.perAddress.windowMs),
      this.everyone.add(EVERY_SIGN_UP, limits.global.windowMs),
    ]);
    const refusal = signUpRefusal(
      { address: mine?.count ?? 0, global: all?.count ?? 0 },
      limits,
      clock.now().getTime(),
    );
    return refusal === undefined ? { kind: 'allowed' } : { kind: 'limited', ...refusal };
  }
}
