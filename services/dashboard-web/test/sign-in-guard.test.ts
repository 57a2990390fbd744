import { createHash } from 'node:crypto';
import { once } from 'node:events';

import { ManualClock } from '@sika/platform';
import { createTestRedis, randomSuffix, type TestRedis } from '@sika/testing';
import { Redis } from 'ioredis';

import type { SignInLimits } from '../src/domain/sign-in-limits';
import { RedisSignInGuard } from '../src/infra/redis-sign-in-guard';
import { capturingLogger } from './support/accounts';

const WINDOW_MS = 15 * 60_000;
const LIMITS: SignInLimits = {
  perAccount: { limit: 3, windowMs: WINDOW_MS },
  perAddress: { limit: 5, windowMs: WINDOW_MS },
};
// Ten minutes into a 15-minute window (windows start at the epoch): 300 s until it resets, whatever the
// test's real duration, since only this clock moves.
const START = new Date('2026-03-01T12:10:00.000Z');

/** Fresh names for each test: the windows are shared by every guard on the server, and the clock is fixed. */
const anAccount = (): string => `merchant-${randomSuffix()}@example.com`;
const anAddress = (): string => `198.51.100.${randomSuffix()}`;

describe('RedisSignInGuard', () => {
  let testRedis: TestRedis;
  let secondReplicaRedis: Redis;
  let clock: ManualClock;
  let replicaA: RedisSignInGuard;
  let replicaB: RedisSignInGuard;

  beforeAll(async () => {
    testRedis = await createTestRedis({ prefix: 'dashboard_signin' });
    // Its own connection with the same key prefix: a second replica of the dashboard.
    secondReplicaRedis = testRedis.redis.duplicate();
  });
  afterAll(async () => {
    await secondReplicaRedis.quit();
    await testRedis.cleanup();
  });

  beforeEach(() => {
    clock = new ManualClock(START);
    const { logger } = capturingLogger('dashboard-web-test');
    replicaA = new RedisSignInGuard({ redis: testRedis.redis, limits: LIMITS, clock, logger });
    replicaB = new RedisSignInGuard({ redis: secondReplicaRedis, limits: LIMITS, clock, logger });
  });

  it('lets a first attempt through, with the tighter of the two limits and the time to the window end', async () => {
    expect(await replicaA.check(anAccount(), anAddress())).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      resetSeconds: 300,
    });
  });

  it('refuses an account after its failures on any replica and from any address, until the window ends', async () => {
    const account = anAccount();
    await replicaA.recordFailure(account, anAddress());
    await replicaB.recordFailure(account, anAddress());
    expect(await replicaA.check(account, anAddress())).toEqual({
      allowed: true,
      limit: 3,
      remaining: 0,
      resetSeconds: 300,
    });
    await replicaA.recordFailure(account, anAddress());

    clock.advance(60_000);
    const refused = { allowed: false, limit: 3, remaining: 0, resetSeconds: 240 };
    expect(await replicaA.check(account, anAddress())).toEqual(refused);
    expect(await replicaB.check(account, anAddress())).toEqual(refused);
    // Another account from the same addresses is not held back.
    expect(await replicaB.check(anAccount(), anAddress())).toMatchObject({ allowed: true });

    clock.set(new Date('2026-03-01T12:15:00.000Z'));
    expect(await replicaB.check(account, anAddress())).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      resetSeconds: 900,
    });
  });

  it('refuses an address that failed on many accounts, each below its own limit', async () => {
    const address = anAddress();
    for (let index = 0; index < 5; index += 1) {
      await (index % 2 === 0 ? replicaA : replicaB).recordFailure(anAccount(), address);
    }
    expect(await replicaA.check(anAccount(), address)).toEqual({
      allowed: false,
      limit: 5,
      remaining: 0,
      resetSeconds: 300,
    });
    expect(await replicaA.check(anAccount(), anAddress())).toMatchObject({ allowed: true });
  });

  it("forgets an account's failures after a sign-in, but not the failures of its address", async () => {
    const [account, address] = [anAccount(), anAddress()];
    for (let index = 0; index < 3; index += 1) await replicaA.recordFailure(account, address);
    expect(await replicaB.check(account, address)).toMatchObject({ allowed: false, limit: 3 });

    await replicaB.forgetAccount(account);

    // Account count back to 0 (3 allowed), address count still 3 of 5: the address is the tighter.
    expect(await replicaA.check(account, address)).toEqual({
      allowed: true,
      limit: 5,
      remaining: 1,
      resetSeconds: 300,
    });
    for (let index = 0; index < 2; index += 1) await replicaA.recordFailure(anAccount(), address);
    expect(await replicaA.check(account, address)).toMatchObject({ allowed: false, limit: 5 });
  });

  it('keeps digests in Redis, never the email or the address, and lets the keys expire', async () => {
    const [account, address] = [anAccount(), anAddress()];
    await replicaA.recordFailure(account, address);

    const keys = await testRedis.keyLifetimes('*');
    const names = keys.map(({ key }) => key).join(' ');
    const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);
    const ours = keys.filter(({ key }) => key.includes(digest(account)) || key.includes(digest(address)));
    expect(ours).toHaveLength(2);
    expect(names).not.toContain(account);
    expect(names).not.toContain(address);
    for (const { ttlMs } of ours) {
      expect(ttlMs).toBeGreaterThan(WINDOW_MS);
      expect(ttlMs).toBeLessThanOrEqual(2 * WINDOW_MS);
    }
  });
  it('logs an outage once when Redis goes away, and its end once when Redis answers again', async () => {
    const { logger, lines } = capturingLogger('dashboard-web-test');
    const flaky = testRedis.redis.duplicate({
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      lazyConnect: true,
    });
    flaky.on('error', () => undefined);
    const guard = new RedisSignInGuard({ redis: flaky, limits: LIMITS, clock, logger });
    const [account, address] = [anAccount(), anAddress()];
    const messages = () => lines().map((line) => [line.level, line.msg]);
    try {
      await flaky.connect();
      // Closed by hand: every command fails at once, as while Redis is away.
      const closed = once(flaky, 'end');
      flaky.disconnect();
      await closed;
      await guard.recordFailure(account, address);
      expect(await guard.check(account, address)).toMatchObject({ allowed: true, remaining: 2 });
      expect(messages()).toEqual([['warn', 'sign-in limiter unavailable: attempts are not limited']]);

      await flaky.connect();
      await guard.recordFailure(account, address);
      expect(await guard.check(account, address)).toMatchObject({ allowed: true, remaining: 1 });
      expect(messages()).toEqual([
        ['warn', 'sign-in limiter unavailable: attempts are not limited'],
        ['info', 'sign-in limiter available again'],
      ]);
    } finally {
      flaky.disconnect();
    }
  });
});

describe('RedisSignInGuard while Redis is unreachable', () => {
  let unreachable: Redis;

  beforeAll(() => {
    // Port 9 (discard) is closed on the test machine. The options are those compose.ts gives the guard's
    // client; no reconnection, so nothing is left running after the tests.
    unreachable = new Redis('redis://127.0.0.1:9', {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 500,
      retryStrategy: () => null,
      disconnectTimeout: 0,
    });
    unreachable.on('error', () => undefined);
  });
  afterAll(() => unreachable.disconnect());

  it('lets every sign-in through instead of failing, and logs the outage once as a warning', async () => {
    const { logger, lines } = capturingLogger('dashboard-web-test');
    const guard = new RedisSignInGuard({
      redis: unreachable,
      limits: LIMITS,
      clock: new ManualClock(START),
      logger,
    });
    const [account, address] = [anAccount(), anAddress()];

    for (let index = 0; index < 10; index += 1) {
      await expect(guard.recordFailure(account, address)).resolves.toBeUndefined();
    }
    await expect(guard.forgetAccount(account)).resolves.toBeUndefined();
    // As if no failure had been counted: the password check alone decides.
    expect(await guard.check(account, address)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      resetSeconds: 300,
    });

    const outage = lines().filter(
      (line) => line.msg === 'sign-in limiter unavailable: attempts are not limited',
    );
    expect(outage).toHaveLength(1);
    expect(outage[0]).toMatchObject({ level: 'warn' });
  });
});
