import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';

import { ManualClock } from '@sika/platform';
import { createTestRedis, randomSuffix, unreachableRedis, type TestRedis } from '@sika/testing';
import type { Redis } from 'ioredis';

import type { SignInLimits } from '../src/domain/sign-in-limits';
import { RedisSignInGuard } from '../src/infra/redis-sign-in-guard';
import { capturingLogger } from './support/accounts';

const WINDOW_MS = 15 * 60_000;
const SLOW_DOWN_MS = 60_000;
const LIMITS: SignInLimits = {
  perAccount: { limit: 3, windowMs: WINDOW_MS },
  perAddress: { limit: 5, windowMs: WINDOW_MS },
  accountSlowDownMs: SLOW_DOWN_MS,
};
// Ten minutes into a 15-minute window (windows start at the epoch): 300 s until it resets, whatever the
// test's real duration, since only this clock moves.
const START = new Date('2026-03-01T12:10:00.000Z');
const ALLOWED = { kind: 'allowed' };

/** Fresh names for each test: the windows are shared by every guard on the server, and the clock is fixed. */
const anAccount = (): string => `merchant-${randomSuffix()}@example.com`;
const anAddress = (): string => `198.51.100.${randomSuffix()}`;
/** A fresh /64 under the documentation prefix. */
const aNetwork = (): string =>
  `2001:db8:${randomBytes(4)
    .toString('hex')
    .replace(/(.{4})/, '$1:')}`;

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

  it('counts a concurrent burst before any password is checked: the limit and one slowed-down turn pass', async () => {
    const account = anAccount();
    const admissions = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        (index % 2 === 0 ? replicaA : replicaB).admit(account, `203.0.113.${index}`),
      ),
    );
    expect(admissions.filter((admission) => admission.kind === 'allowed')).toHaveLength(
      LIMITS.perAccount.limit + 1,
    );
  });

  it('slows an account down past its limit, one attempt per period, rather than locking its owner out', async () => {
    const account = anAccount();
    for (let index = 0; index < LIMITS.perAccount.limit; index += 1) {
      expect(await replicaA.admit(account, anAddress())).toEqual(ALLOWED);
    }
    // Past the limit: the period's one turn, then a wait of the period, on every replica.
    expect(await replicaB.admit(account, anAddress())).toEqual(ALLOWED);
    expect(await replicaA.admit(account, anAddress())).toMatchObject({ kind: 'limited' });
    const refused = await replicaB.admit(account, anAddress());
    expect(refused.kind === 'limited' && refused.retryAfterSeconds).toBeLessThanOrEqual(SLOW_DOWN_MS / 1000);
    // Another account from the same addresses is not held back.
    expect(await replicaB.admit(anAccount(), anAddress())).toEqual(ALLOWED);

    // The slow-down key lives in real time (Redis expiry): the next turn comes after the period, well before
    // the window's end.
    await testRedis.redis.del(await slowDownKeyOf(account));
    expect(await replicaA.admit(account, anAddress())).toEqual(ALLOWED);
  });

  it('refuses an address past its limit on many accounts until the window ends', async () => {
    const address = anAddress();
    for (let index = 0; index < LIMITS.perAddress.limit; index += 1) {
      expect(await (index % 2 === 0 ? replicaA : replicaB).admit(anAccount(), address)).toEqual(ALLOWED);
    }
    expect(await replicaA.admit(anAccount(), address)).toEqual({ kind: 'limited', retryAfterSeconds: 300 });
    expect(await replicaA.admit(anAccount(), anAddress())).toEqual(ALLOWED);
  });

  it('counts every IPv6 address of a /64 as one address', async () => {
    const network = aNetwork();
    for (let index = 0; index < LIMITS.perAddress.limit; index += 1) {
      expect(await replicaA.admit(anAccount(), `${network}::${index + 1}`)).toEqual(ALLOWED);
    }
    expect(await replicaB.admit(anAccount(), `${network}:ffff:ffff:ffff:ffff`)).toEqual({
      kind: 'limited',
      retryAfterSeconds: 300,
    });
    expect(await replicaB.admit(anAccount(), `${aNetwork()}::1`)).toEqual(ALLOWED);
  });

  it("forgets an account's attempts after a sign-in, but not its address's", async () => {
    const [account, address] = [anAccount(), anAddress()];
    for (let index = 0; index < 3; index += 1) await replicaA.admit(account, address);
    await replicaB.forgetAccount(account);
    // Three more on the account are within its limit again; the address reaches its own limit of five.
    expect(await replicaA.admit(account, address)).toEqual(ALLOWED);
    expect(await replicaA.admit(account, address)).toEqual(ALLOWED);
    expect(await replicaA.admit(account, address)).toMatchObject({ kind: 'limited' });
  });

  it('keeps digests in Redis, never the email or the address, and lets the keys expire', async () => {
    const [account, address] = [anAccount(), anAddress()];
    await replicaA.admit(account, address);

    const keys = await testRedis.keyLifetimes('*');
    const names = keys.map(({ key }) => key).join(' ');
    const ours = keys.filter(({ key }) => key.includes(digest(account)) || key.includes(digest(address)));
    expect(ours).toHaveLength(2);
    expect(names).not.toContain(account);
    expect(names).not.toContain(address);
    for (const { ttlMs } of ours) {
      expect(ttlMs).toBeGreaterThan(WINDOW_MS);
      expect(ttlMs).toBeLessThanOrEqual(2 * WINDOW_MS);
    }
  });

  async function slowDownKeyOf(account: string): Promise<string> {
    const keys = await testRedis.redis.keys(`*dashboard:signin:slow:${digest(account)}`);
    const [key] = keys;
    if (key === undefined || keys.length !== 1) throw new Error('expected one slow-down key');
    // The test client adds its prefix to every key it is given.
    return key.slice(key.indexOf('dashboard:signin:slow:'));
  }

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
      expect(await guard.admit(account, address)).toEqual(ALLOWED);
      expect(messages()).toEqual([['warn', 'sign-in limiter unavailable: attempts are not limited']]);

      await flaky.connect();
      expect(await guard.admit(account, address)).toEqual(ALLOWED);
      expect(messages()).toEqual([
        ['warn', 'sign-in limiter unavailable: attempts are not limited'],
        ['info', 'sign-in limiter available again'],
      ]);
    } finally {
      flaky.disconnect();
    }
  });
});

const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

describe('RedisSignInGuard while Redis is unreachable', () => {
  let unreachable: Redis;

  beforeAll(() => {
    unreachable = unreachableRedis();
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

    // As if nothing were counted: the password check alone decides.
    for (let index = 0; index < 10; index += 1) {
      expect(await guard.admit(account, address)).toEqual(ALLOWED);
    }
    await expect(guard.forgetAccount(account)).resolves.toBeUndefined();

    const outage = lines().filter(
      (line) => line.msg === 'sign-in limiter unavailable: attempts are not limited',
    );
    expect(outage).toHaveLength(1);
    expect(outage[0]).toMatchObject({ level: 'warn' });
  });
});
